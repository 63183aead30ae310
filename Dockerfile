# syntax=docker/dockerfile:1
# The Headroom image: one image runs every stage (`headroom ingest|topology|actuator|webhook|run`,
# and policy, simulate, audit, explain, preflight). It ships the operator jar (module cli): no API
# double, no demo, no Kafka Streams test utilities (`demo` is only in ./headroom's launcher jar).
# Conventional multi-stage build; it has NOT been built in the development environment (no
# Docker engine there), so treat the first real build as its test.
#
#   docker build -t ghcr.io/karlkfi/kube-headroom:dev .
#   docker run --rm ghcr.io/karlkfi/kube-headroom:dev --help

# --- build: the operator jar and its runtime dependencies (cli/target/headroom-operator.jar + lib/) ---
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q -pl cli -am -DskipTests -Dmaven.javadoc.skip=true package

# --- run: a JRE 17 as a non-root user ---
FROM eclipse-temurin:17-jre
# UID/GID 10001 match the Helm chart's podSecurityContext (runAsUser/runAsGroup/fsGroup).
RUN groupadd --system --gid 10001 headroom \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin headroom
WORKDIR /opt/headroom
# The jar's manifest puts lib/*.jar on the class path (relative to the jar).
COPY --from=build /src/cli/target/lib/ /opt/headroom/lib/
COPY --from=build /src/cli/target/headroom-operator.jar /opt/headroom/headroom.jar
USER 10001:10001
# health (/healthz, /readyz), metrics (HTTPS), admission webhook (HTTPS)
EXPOSE 8081 8443 9443
ENTRYPOINT ["java", "-jar", "/opt/headroom/headroom.jar"]
CMD ["--help"]
