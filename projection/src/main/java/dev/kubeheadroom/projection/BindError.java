package dev.kubeheadroom.projection;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Collection;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A binding failure as a user reads it: the field's path in the object and what was wrong there
 * ({@code spec.containers: expected an array, got a string}), never the Java type Jackson names
 * ({@code java.util.ArrayList<io.fabric8...Container>}).
 */
public final class BindError {
  /** Jackson's "from String value" / "from Array value": the JSON token it met. */
  private static final Pattern GOT = Pattern.compile("from (String|Array|Object|Integer|Floating-point|Boolean|Null) value");
  /** A Java type in backticks, as Jackson quotes them. */
  private static final Pattern JAVA_TYPE = Pattern.compile("`[\\w.$<>, \\[\\]]+`");
  /** The source Jackson names in a nested location ("start marker at [Source: ...; line: 1, ..."). */
  private static final Pattern SOURCE = Pattern.compile("\\[Source: [^\\]]*?; line");

  private BindError() {}

  /**
   * Any read failure of a JSON document in one line: a binding failure as its field path and
   * problem (fields under {@code prefix}, e.g. {@code request.object.}), a syntax error as
   * Jackson's own message and its position.
   */
  public static String describe(JsonProcessingException e, String prefix) {
    if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
      return prefix + describe(mapping);
    }
    JsonLocation at = e.getLocation();
    String original = SOURCE.matcher(String.valueOf(e.getOriginalMessage())).replaceAll("[line");
    String message = WatchLogReader.oneLine(JAVA_TYPE.matcher(original).replaceAll("a value"));
    return at == null || at.getLineNr() < 0 ? message
        : message + " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
  }

  static String describe(JsonMappingException e) {
    String path = path(e);
    String what = what(e);
    return path.isEmpty() ? what : path + ": " + what;
  }

  /** {@code spec.containers[0].resources}: the reference chain, indexes in brackets. */
  static String path(JsonMappingException e) {
    StringBuilder out = new StringBuilder();
    for (JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null) {
        out.append(out.length() == 0 ? "" : ".").append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        out.append('[').append(r.getIndex()).append(']');
      }
    }
    return out.toString();
  }

  private static String what(JsonMappingException e) {
    if (e instanceof InvalidFormatException f && f.getTargetType() != null) {
      return "expected " + kind(f.getTargetType()) + ", got " + WatchLogReader.oneLine(String.valueOf(f.getValue()));
    }
    if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
      Matcher got = GOT.matcher(String.valueOf(m.getOriginalMessage()));
      return "expected " + kind(m.getTargetType()) + (got.find() ? ", got " + token(got.group(1)) : "");
    }
    if (e.getCause() instanceof IllegalArgumentException && String.valueOf(e.getOriginalMessage()).contains("quantity")) {
      return "not a quantity";
    }
    return WatchLogReader.oneLine(JAVA_TYPE.matcher(String.valueOf(e.getOriginalMessage())).replaceAll("a value"));
  }

  private static String kind(Class<?> type) {
    if (Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "an array";
    }
    if (type == String.class || type.isEnum()) {
      return "a string";
    }
    if (Number.class.isAssignableFrom(type) || type == int.class || type == long.class || type == double.class) {
      return "a number";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (type == Quantity.class) {
      return "a quantity";
    }
    return "an object"; // a map or a model class
  }

  private static String token(String jackson) {
    return switch (jackson) {
      case "String" -> "a string";
      case "Array" -> "an array";
      case "Object" -> "an object";
      case "Integer", "Floating-point" -> "a number";
      case "Boolean" -> "true or false";
      default -> "null";
    };
  }
}
