package dev.kubeheadroom.deploy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Renders the charts under {@code deploy/charts} with helm-java (helm as a native library, no
 * binary) and parses the output into fabric8 objects. Kinds fabric8 has no model for (cert-manager,
 * ServiceMonitor, HeadroomConfig) come back as {@link GenericKubernetesResource}.
 */
final class Charts {
  /** Surefire runs with the module directory ({@code deploy/}) as the working directory. */
  static final Path DEPLOY = Path.of("").toAbsolutePath();
  static final Path OPERATOR = DEPLOY.resolve("charts/kube-headroom");
  static final Path CRDS = DEPLOY.resolve("charts/kube-headroom-crds");
  static final Path CRD_FILE = DEPLOY.resolve("crds/headroomconfigs.kube-headroom.dev.yaml");
  static final Path SAMPLE = DEPLOY.resolve("samples/headroomconfig-cluster.yaml");
  static final String RELEASE = "kube-headroom";
  static final String NAMESPACE = "kube-headroom-system";

  private Charts() {}

  /** {@code helm template} of the operator chart with the given values files (under test resources). */
  static Rendered operator(String... valuesFiles) {
    return render(OPERATOR, valuesFiles);
  }

  /** As {@link #operator(String...)}, then {@code --set key=value} for each entry. */
  static Rendered operatorSet(Map<String, String> sets, String... valuesFiles) {
    return render(OPERATOR, sets, valuesFiles);
  }

  static Rendered render(Path chart, String... valuesFiles) {
    return render(chart, Map.of(), valuesFiles);
  }

  static Rendered render(Path chart, Map<String, String> sets, String... valuesFiles) {
    TemplateCommand template =
        new Helm(chart).template().withName(RELEASE).withNamespace(NAMESPACE);
    for (String file : valuesFiles) {
      template = template.withValuesFile(values(file));
    }
    for (Map.Entry<String, String> set : sets.entrySet()) {
      template = template.set(set.getKey(), set.getValue());
    }
    return new Rendered(parse(template.call()));
  }

  static Path values(String file) {
    Path path = DEPLOY.resolve("src/test/resources/values").resolve(file);
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException("no values file " + path);
    }
    return path;
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

  /** One rendering, with typed look-ups. */
  record Rendered(List<HasMetadata> objects) {
    <T extends HasMetadata> List<T> all(Class<T> type) {
      return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    List<GenericKubernetesResource> generic(String kind) {
      return all(GenericKubernetesResource.class).stream()
          .filter(r -> kind.equals(r.getKind()))
          .toList();
    }

    <T extends HasMetadata> T one(Class<T> type, String name) {
      return find(type, name)
          .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name));
    }

    <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
      return all(type).stream().filter(o -> name.equals(o.getMetadata().getName())).findFirst();
    }

    List<Deployment> deployments() {
      return all(Deployment.class);
    }

    Deployment deployment(String component) {
      return one(Deployment.class, RELEASE + "-" + component);
    }

    Stream<Container> containers() {
      return deployments().stream()
          .flatMap(d -> d.getSpec().getTemplate().getSpec().getContainers().stream());
    }

    static Container container(Deployment deployment) {
      List<Container> containers = deployment.getSpec().getTemplate().getSpec().getContainers();
      if (containers.size() != 1) {
        throw new AssertionError(deployment.getMetadata().getName() + " has " + containers.size() + " containers");
      }
      return containers.get(0);
    }

    static List<String> args(Deployment deployment) {
      return container(deployment).getArgs();
    }

    /** The value of {@code --name=value} in the container's args, if given. */
    static Optional<String> flag(Deployment deployment, String name) {
      String prefix = name + "=";
      return args(deployment).stream()
          .filter(a -> a.startsWith(prefix))
          .map(a -> a.substring(prefix.length()))
          .findFirst();
    }
  }

  static List<String> list(String... items) {
    return Arrays.asList(items);
  }
}
