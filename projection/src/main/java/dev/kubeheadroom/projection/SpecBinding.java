package dev.kubeheadroom.projection;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Binds a HeadroomConfig's raw {@code spec} (the map fabric8 holds) into a {@link HeadroomConfigSpec}
 * with Jackson, and turns what Jackson refuses into one {@link ConfigException} naming the field's
 * path: {@code spec.rateLimits.clientBurst: must be an integer, got "1.5"}.
 */
final class SpecBinding {
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .build();

  private SpecBinding() {}

  /** The spec as written; null (no spec) is the empty spec, every field at its default. */
  static HeadroomConfigSpec bind(Object rawSpec) {
    if (rawSpec == null) {
      return HeadroomConfigSpec.EMPTY;
    }
    try {
      return MAPPER.convertValue(rawSpec, HeadroomConfigSpec.class);
    } catch (IllegalArgumentException e) {
      if (e.getCause() instanceof JsonMappingException refused) {
        throw refusal(refused, rawSpec);
      }
      throw new ConfigException("spec", ConfigProjection.oneLine(e.getMessage()));
    }
  }

  private static ConfigException refusal(JsonMappingException e, Object rawSpec) {
    StringBuilder path = new StringBuilder("spec");
    Object raw = rawSpec;
    for (JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null) {
        path.append('.').append(r.getFieldName());
        raw = raw instanceof Map<?, ?> map ? map.get(r.getFieldName()) : null;
      } else if (r.getIndex() >= 0) {
        path.append('[').append(r.getIndex()).append(']');
        raw = raw instanceof List<?> list && r.getIndex() < list.size() ? list.get(r.getIndex()) : null;
      }
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SpecValues.Problem problem) {
        return new ConfigException(path + problem.subPath, problem.getMessage());
      }
    }
    if (e instanceof MismatchedInputException m && m.getTargetType() != null
        && Collection.class.isAssignableFrom(m.getTargetType())) {
      return new ConfigException(path.toString(), "must be a list, got " + ConfigProjection.quote(raw));
    }
    if (e instanceof MismatchedInputException) {
      return new ConfigException(path.toString(), "must be an object, got " + ConfigProjection.quote(raw));
    }
    return new ConfigException(path.toString(), ConfigProjection.oneLine(e.getOriginalMessage()));
  }
}
