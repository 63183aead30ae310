package dev.kubeheadroom.installed;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operator chart rendered as {@code helm template} would (helm-java: helm as a native library)
 * and parsed into fabric8 objects; kinds fabric8 has no model for (cert-manager, HeadroomConfig)
 * come back as {@code GenericKubernetesResource}.
 */
final class Chart {
  /** Surefire runs with the module directory ({@code installed/}) as the working directory. */
  static final Path ROOT = Path.of("").toAbsolutePath().getParent();
  static final Path DEPLOY = ROOT.resolve("deploy");
  static final Path OPERATOR = DEPLOY.resolve("charts/kube-headroom");
  static final Path CRD_FILE = DEPLOY.resolve("crds/headroomconfigs.kube-headroom.dev.yaml");
  static final Path SAMPLE = DEPLOY.resolve("samples/headroomconfig-cluster.yaml");

  private Chart() {}

  /**
   * The chart's defaults but one, and a value a user sets: no NetworkPolicy (no server here
   * enforces one; deploy's chart tests render it); the scraper's ServiceAccount ({@link
   * Installation#SCRAPER}, in the release namespace) bound to {@code <release>-metrics-reader}, so
   * the tier scrapes with its token through the metrics port's TokenReview and SubjectAccessReview
   * ({@code metrics.auth=kubernetes}, the default).
   */
  private static final Map<String, Object> TIER_BASELINE =
      Map.of("networkPolicy.enabled", "false", "prometheus.serviceAccount.name", Installation.SCRAPER);

  /**
   * Renders the chart at its default values except {@code overrides} ({@code --set key=value}),
   * for a release {@code name} in {@code namespace}.
   */
  static List<HasMetadata> render(String name, String namespace, Map<String, Object> overrides) {
    TemplateCommand template = new Helm(OPERATOR).template().withName(name).withNamespace(namespace);
    Map<String, Object> values = new LinkedHashMap<>(TIER_BASELINE);
    values.putAll(overrides);
    for (Map.Entry<String, Object> e : values.entrySet()) {
      template = template.set(e.getKey(), e.getValue());
    }
    return parse(template.call());
  }

  /** The objects of a YAML file (the CRD, the sample HeadroomConfig). */
  static List<HasMetadata> read(Path file) {
    try {
      return parse(Files.readString(file));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot read " + file, e);
    }
  }

  /** Splits a multi-document YAML stream and unmarshals every non-empty document. */
  static List<HasMetadata> parse(String yaml) {
    List<HasMetadata> objects = new ArrayList<>();
    for (String doc : yaml.split("(?m)^---\\s*$")) {
      boolean empty =
          doc.lines().map(String::strip).allMatch(line -> line.isEmpty() || line.startsWith("#"));
      if (!empty) {
        objects.add(Serialization.unmarshal(doc, HasMetadata.class));
      }
    }
    return objects;
  }
}
