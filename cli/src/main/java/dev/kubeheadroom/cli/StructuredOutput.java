package dev.kubeheadroom.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.PrintWriter;

/**
 * Writes a command's view record as {@code -o json} or {@code -o yaml}: record components in
 * declaration order, times as RFC 3339 strings, absent (null) fields left out.
 */
public final class StructuredOutput {
  private static final ObjectMapper JSON = configure(JsonMapper.builder().build())
      .enable(SerializationFeature.INDENT_OUTPUT);
  private static final ObjectMapper YAML = configure(new ObjectMapper(new YAMLFactory()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
      .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)));

  private StructuredOutput() {}

  private static ObjectMapper configure(ObjectMapper mapper) {
    return mapper.registerModule(new JavaTimeModule())
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        .setSerializationInclusion(JsonInclude.Include.NON_NULL);
  }

  /** A JSON document (a contract's exact form) re-written as YAML, same fields, same order. */
  public static void yamlOfJson(String json, PrintWriter out) {
    try {
      out.print(YAML.writeValueAsString(JSON.readTree(json)));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("not JSON: " + json, e);
    }
    out.flush();
  }

  /** {@code view} in {@code format} (json or yaml) on {@code out}, flushed. */
  static void write(OutputFormat format, Object view, PrintWriter out) {
    try {
      switch (format) {
        case json -> out.println(JSON.writeValueAsString(view));
        case yaml -> out.print(YAML.writeValueAsString(view));
        case table -> throw new IllegalArgumentException("a table is written by its command");
        case html -> throw new UserError("-o html: this view prints table, json or yaml (audit --from/--to and"
            + " simulate draw a page)");
      }
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(view.getClass().getSimpleName() + " does not serialize", e);
    }
    out.flush();
  }
}
