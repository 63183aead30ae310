package dev.kubeheadroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code values.schema.json}: {@code helm lint} (through helm-java, whose lint takes no values
 * file, so each case lints a copy of the chart whose values.yaml carries the bad value) and
 * {@code helm template} refuse bad values, naming the value.
 */
class ValuesSchemaTest {
  @TempDir Path tmp;

  static Stream<Arguments> badValues() {
    return Stream.of(
        // The renamed keys: the old spelling must fail, not be silently ignored.
        Arguments.of("certmanager:\n  enable: false\n", "enable"),
        Arguments.of("prometheus:\n  enable: true\n", "enable"),
        Arguments.of("kafka:\n  topics:\n    partitions: 0\n", "kafka.topics.partitions"),
        Arguments.of("webhook:\n  port: \"https\"\n", "webhook.port"),
        Arguments.of("image:\n  pullPolicy: Sometimes\n", "image.pullPolicy"),
        Arguments.of("extraArgs: [\"topic-retention=1h\"]\n", "extraArgs"),
        Arguments.of("extraEnv: [{value: x}]\n", "name"),
        Arguments.of("topology:\n  standbyReplicas: -1\n", "topology.standbyReplicas"),
        Arguments.of("kafka:\n  topics:\n    retention: 7days\n", "kafka.topics.retention"),
        Arguments.of("logging:\n  format: xml\n", "logging.format"),
        Arguments.of("metrics:\n  podSeries: -5\n", "metrics.podSeries"),
        Arguments.of("prometheusRule:\n  enable: true\n", "enable"));
  }

  @ParameterizedTest
  @MethodSource("badValues")
  void lintRejectsBadValuesNamingThem(String overlay, String named) {
    LintResult lint = new Helm(chartWith(overlay)).lint().call();

    assertThat(lint.isFailed()).as("lint of %s: %s", overlay, lint.getMessages()).isTrue();
    assertThat(String.join("\n", lint.getMessages())).contains("schema").contains(named);
  }

  @Test
  void lintAcceptsTheNewValues() {
    LintResult lint = new Helm(chartWith("""
        certmanager: {enabled: true}
        prometheus: {enabled: true}
        serviceAccount: {create: false, name: platform-headroom}
        extraArgs: [--topic-retention=72h]
        extraEnv: [{name: TZ, value: UTC}]
        topology: {standbyReplicas: 1, statefulSet: {enabled: true, size: 8Gi}}
        grafanaDashboard: {enabled: true}
        webhook: {namespaceSelector: {matchExpressions: [{key: team, operator: Exists}]}}
        """)).lint().strict().call();

    assertThat(lint.isFailed()).as("lint: %s", lint.getMessages()).isFalse();
  }

  @Test
  void templateRejectsAnUnknownValue() {
    assertThatThrownBy(() -> Charts.operatorSet(Map.of("certmanager.enable", "false")))
        .hasMessageContaining("schema").hasMessageContaining("enable");
  }

  /** A copy of the operator chart (symlinks followed) with {@code overlay} merged into values.yaml. */
  private Path chartWith(String overlay) {
    Path chart = tmp.resolve("kube-headroom");
    try (Stream<Path> files = Files.walk(Charts.OPERATOR)) {
      for (Path file : files.toList()) {
        Path target = chart.resolve(Charts.OPERATOR.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
      ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
      Map<String, Object> values = yaml.readValue(chart.resolve("values.yaml").toFile(), Map.class);
      merge(values, yaml.readValue(overlay, Map.class));
      yaml.writeValue(chart.resolve("values.yaml").toFile(), values);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return chart;
  }

  @SuppressWarnings("unchecked")
  private static void merge(Map<String, Object> into, Map<String, Object> overlay) {
    overlay.forEach((key, value) -> {
      if (value instanceof Map<?, ?> m && into.get(key) instanceof Map<?, ?> existing) {
        merge((Map<String, Object>) existing, (Map<String, Object>) m);
      } else {
        into.put(key, value);
      }
    });
  }
}
