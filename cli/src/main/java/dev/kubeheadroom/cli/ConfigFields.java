package dev.kubeheadroom.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * The fields of a {@code --config} manifest that the HeadroomConfig CRD does not have
 * ({@code spec.maxMultiplyer}): the API server would prune them, and the projection ignores them,
 * so a misspelling would go unnoticed. Read against the CRD's own structural schema (the file
 * {@code deploy/crds} installs, packaged with the command line), so the two cannot disagree.
 */
final class ConfigFields {
  private static final String CRD = "/headroomconfigs.kube-headroom.dev.yaml";
  private static final JsonNode SPEC = specSchema();

  private ConfigFields() {}

  /** One line per unknown field of {@code spec}: {@code line 5: spec.maxMultiplyer: unknown field, ignored}. */
  static List<String> unknown(Node root) {
    List<String> out = new ArrayList<>();
    if (root instanceof MappingNode doc) {
      for (NodeTuple t : doc.getValue()) {
        if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals("spec")) {
          walk(t.getValueNode(), SPEC, "spec", out);
        }
      }
    }
    return out;
  }

  private static void walk(Node node, JsonNode schema, String path, List<String> out) {
    if (schema == null || schema.path("x-kubernetes-preserve-unknown-fields").asBoolean()) {
      return;
    }
    if (node instanceof MappingNode map) {
      JsonNode properties = schema.get("properties");
      JsonNode additional = schema.get("additionalProperties");
      for (NodeTuple t : map.getValue()) {
        String key = t.getKeyNode() instanceof ScalarNode k ? k.getValue() : "?";
        String at = path + "." + key;
        if (properties != null && properties.has(key)) {
          walk(t.getValueNode(), properties.get(key), at, out);
        } else if (additional != null && additional.isObject()) {
          walk(t.getValueNode(), additional, at, out);
        } else if (properties != null) {
          out.add("line " + ConfigYaml.line(t.getKeyNode()) + ": " + at + ": unknown field, ignored");
        }
      }
    } else if (node instanceof SequenceNode seq && schema.has("items")) {
      for (int i = 0; i < seq.getValue().size(); i++) {
        walk(seq.getValue().get(i), schema.get("items"), path + "[" + i + "]", out);
      }
    }
  }

  private static JsonNode specSchema() {
    try (InputStream in = ConfigFields.class.getResourceAsStream(CRD)) {
      if (in == null) {
        throw new IllegalStateException("the HeadroomConfig CRD is not on the classpath: " + CRD);
      }
      JsonNode crd = new ObjectMapper(new YAMLFactory()).readTree(in);
      for (JsonNode version : crd.path("spec").path("versions")) {
        if (version.path("storage").asBoolean()) {
          return version.path("schema").path("openAPIV3Schema").path("properties").path("spec");
        }
      }
      return crd.path("spec").path("versions").path(0).path("schema").path("openAPIV3Schema").path("properties").path("spec");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
