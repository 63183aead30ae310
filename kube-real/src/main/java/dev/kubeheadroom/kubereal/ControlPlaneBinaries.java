package dev.kubeheadroom.kubereal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * Where {@code tools/control-plane/build} put the test control plane's binaries, and whether they
 * are there. The layout is the one fabric8's kube-api-test reads:
 * {@code <cache>/k8s/<1.N.M>-linux-amd64/{kube-apiserver,etcd,kubectl}}.
 *
 * @param cache the cache root ({@code $HEADROOM_CONTROL_PLANE_CACHE}, default
 *     {@code ~/.cache/kube-headroom/control-plane})
 * @param version the Kubernetes version, {@code 1.N.M} (no {@code v})
 */
public record ControlPlaneBinaries(Path cache, String version) {

  /** The variable a developer sets to point at another cache root. */
  public static final String CACHE_ENV = "HEADROOM_CONTROL_PLANE_CACHE";

  /**
   * The system property (or {@code HEADROOM_K8S_VERSION}) that picks another version than the
   * newest one {@code tools/control-plane/versions.env} names: a version ({@code v1.35.4}), or
   * {@code min} for the file's oldest supported minor (profile {@code k8s-min}).
   */
  public static final String VERSION_PROPERTY = "headroom.k8s.version";

  /** The binaries this JVM's tests run against. */
  public static ControlPlaneBinaries locate() {
    String env = System.getenv(CACHE_ENV);
    Path cache = env != null && !env.isBlank()
        ? Path.of(env)
        : Path.of(System.getProperty("user.home"), ".cache", "kube-headroom", "control-plane");
    String version = Optional.ofNullable(System.getProperty(VERSION_PROPERTY))
        .or(() -> Optional.ofNullable(System.getenv("HEADROOM_K8S_VERSION")))
        .filter(v -> !v.isBlank())
        .map(v -> v.equals("min") ? VersionsFile.find().value("K8S_MIN_VERSION") : v)
        .orElseGet(() -> VersionsFile.find().value("K8S_VERSION"));
    return new ControlPlaneBinaries(cache, version.startsWith("v") ? version.substring(1) : version);
  }

  /** The directory holding this version's binaries. */
  public Path dir() {
    return cache.resolve("k8s").resolve(version + "-linux-amd64");
  }

  public Path apiServer() {
    return dir().resolve("kube-apiserver");
  }

  public Path kubectl() {
    return dir().resolve("kubectl");
  }

  /** The kubelet, built only on request ({@code tools/control-plane/build --kubelet}). */
  public Path kubelet() {
    return dir().resolve("kubelet");
  }

  public boolean available() {
    return List.of("kube-apiserver", "etcd", "kubectl").stream()
        .allMatch(name -> Files.isExecutable(dir().resolve(name)));
  }

  /** One line saying what is missing and how to get it. */
  public String missingReason() {
    return "real kube-apiserver v" + version + " not built in " + dir()
        + ": run tools/control-plane/build (needs Go >= 1.26)";
  }

  /**
   * Skips the calling test where the binaries are missing, with one line that says how to get
   * them; on CI ({@code CI=true}) a missing control plane fails instead, since CI builds it
   * ({@code .ci/run}) and a skipped real-server tier would pass for nothing.
   */
  public ControlPlaneBinaries requireOrSkip() {
    if (available()) {
      return this;
    }
    skipOrFailOnCi(missingReason() + "; skipped");
    return this;
  }

  /**
   * Skips the calling test with {@code reason}; on CI ({@code CI=true}) fails with it instead: a
   * tier CI runs and skips would pass for nothing.
   */
  static void skipOrFailOnCi(String reason) {
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      throw new IllegalStateException(reason + " (CI must run it)");
    }
    Assumptions.abort(reason);
  }

  /** {@code tools/control-plane/versions.env}, found by walking up from the working directory. */
  record VersionsFile(List<String> lines) {
    static VersionsFile find() {
      for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
        Path file = dir.resolve("tools/control-plane/versions.env");
        if (Files.isRegularFile(file)) {
          try {
            return new VersionsFile(Files.readAllLines(file));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
      throw new IllegalStateException(
          "tools/control-plane/versions.env not found above " + Path.of("").toAbsolutePath());
    }

    String value(String key) {
      return lines.stream()
          .map(String::strip)
          .filter(line -> line.startsWith(key + "="))
          .map(line -> line.substring(key.length() + 1).strip())
          .findFirst()
          .orElseThrow(() -> new IllegalStateException(key + " missing from versions.env"));
    }
  }
}
