package dev.kubeheadroom.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The structural defaulting the API server does before it validates: every property the CRD
 * gives a {@code default} is set where it is absent, then defaulting goes on inside it (so
 * {@code spec: {}} fills {@code deadband: {}}, which fills {@code grow: 10}).
 */
final class CrdDefaults {
  private static final ObjectMapper JSON = new ObjectMapper();

  private CrdDefaults() {}

  /** The HeadroomConfig's {@code spec} schema, from the CRD file deploy/crds installs. */
  static JSONSchemaProps specSchema() {
    try {
      CustomResourceDefinition crd = Serialization.unmarshal(Files.readString(Charts.CRD_FILE),
          CustomResourceDefinition.class);
      return crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema().getProperties().get("spec");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code value} with the schema's defaults applied, as stored; the value itself is not changed. */
  @SuppressWarnings("unchecked")
  static Object apply(JSONSchemaProps schema, Object value) {
    if (value instanceof Map<?, ?> map && schema.getProperties() != null) {
      Map<String, Object> out = new LinkedHashMap<>((Map<String, Object>) map);
      schema.getProperties().forEach((name, child) -> {
        if (!out.containsKey(name) && child.getDefault() != null) {
          out.put(name, JSON.convertValue(child.getDefault(), Object.class));
        }
        if (out.containsKey(name)) {
          out.put(name, apply(child, out.get(name)));
        }
      });
      return out;
    }
    if (value instanceof List<?> list && schema.getItems() != null && schema.getItems().getSchema() != null) {
      return list.stream().map(item -> apply(schema.getItems().getSchema(), item)).toList();
    }
    return value;
  }
}
