package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import java.io.IOException;

/**
 * The one JSON mapping of every record. Deterministic (map keys sorted, component order), lenient
 * on read (unknown fields ignored), strict on types (a wrong type is a {@link SchemaException}).
 */
public final class JsonCodec {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .addModule(new JavaTimeModule())
          // Generated accessors instead of reflection: every record crosses this codec at least
          // twice per event (topic and store), so it is the pipeline's hottest code.
          .addModule(new BlackbirdModule())
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
          .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
          .build();

  /** One reader per type: {@code readValue(bytes, Class)} resolves the type on every call. */
  private static final ClassValue<ObjectReader> READERS = new ClassValue<>() {
    @Override
    protected ObjectReader computeValue(Class<?> type) {
      return MAPPER.readerFor(type);
    }
  };

  private JsonCodec() {}

  /** The shared mapper, for callers that need trees (never reconfigure it). */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  public static byte[] encode(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new SchemaException("cannot encode " + value.getClass().getSimpleName() + ": " + e.getOriginalMessage(), e);
    }
  }

  public static String encodeToString(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new SchemaException("cannot encode " + value.getClass().getSimpleName() + ": " + e.getOriginalMessage(), e);
    }
  }

  /** Reads one record; never returns null (an empty or {@code null} payload is an error). */
  public static <T> T decode(byte[] bytes, Class<T> type) {
    if (bytes == null || bytes.length == 0) {
      throw new SchemaException(type.getSimpleName() + ": empty payload");
    }
    T value;
    try {
      value = READERS.get(type).readValue(bytes);
    } catch (IOException e) {
      throw new SchemaException(type.getSimpleName() + ": " + describe(e), e);
    }
    if (value == null) {
      throw new SchemaException(type.getSimpleName() + ": null payload");
    }
    if (value instanceof Versioned v && v.schemaVersion() < 1) {
      throw new SchemaException(type.getSimpleName() + ": bad schemaVersion");
    }
    return value;
  }

  private static String describe(IOException e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message =
        e instanceof JsonProcessingException jpe ? jpe.getOriginalMessage() : e.getMessage();
    if (root != e && root instanceof IllegalArgumentException) {
      message = root.getMessage();
    }
    message = message == null ? e.getClass().getSimpleName() : message.lines().findFirst().orElse("");
    String path = e instanceof com.fasterxml.jackson.databind.JsonMappingException jme ? path(jme) : "";
    return path.isEmpty() ? message : path + ": " + message;
  }

  /** {@code containers[2].cpuRequestMilli}-style location of a mapping error. */
  private static String path(com.fasterxml.jackson.databind.JsonMappingException e) {
    StringBuilder sb = new StringBuilder();
    for (com.fasterxml.jackson.databind.JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        sb.append(sb.length() == 0 ? "" : ".").append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        sb.append('[').append(ref.getIndex()).append(']');
      }
    }
    return sb.toString();
  }
}
