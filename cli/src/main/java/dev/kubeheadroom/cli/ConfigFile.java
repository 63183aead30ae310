package dev.kubeheadroom.cli;

import dev.kubeheadroom.projection.ConfigException;
import dev.kubeheadroom.projection.ConfigProjection;
import dev.kubeheadroom.schemas.ClusterConfig;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/** Reads a HeadroomConfig manifest (YAML or JSON) given with {@code --config}. */
final class ConfigFile {
  private ConfigFile() {}

  /** @param warn takes one line per field the CRD does not have (named with its line) */
  static ClusterConfig read(Path file, Consumer<String> warn) {
    if (file == null) {
      return ClusterConfig.DEFAULTS;
    }
    GenericKubernetesResource object;
    List<String> unknown;
    try {
      String text = Files.readString(file);
      unknown = ConfigFields.unknown(ConfigYaml.compose(text)); // compose refuses what binding cannot survive
      object = Serialization.unmarshal(text, GenericKubernetesResource.class);
    } catch (NoSuchFileException e) {
      throw new UserError("--config " + file + ": no such file");
    } catch (IOException | RuntimeException e) {
      throw new UserError("--config " + file + ": not a HeadroomConfig manifest (" + firstLine(e) + ")");
    }
    if (object == null || !"HeadroomConfig".equals(object.getKind())) {
      throw new UserError("--config " + file + ": expected kind HeadroomConfig");
    }
    ClusterConfig config;
    try {
      config = ConfigProjection.project(object);
    } catch (ConfigException e) {
      throw new UserError("--config " + file + ": " + e.getMessage()); // the one line: no warnings before it
    }
    for (String field : unknown) {
      warn.accept("--config " + file + ": " + field);
    }
    return config;
  }

  private static String firstLine(Exception e) {
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m.lines().findFirst().orElse("");
  }
}
