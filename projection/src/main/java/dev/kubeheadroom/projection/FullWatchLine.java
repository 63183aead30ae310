package dev.kubeheadroom.projection;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;

/**
 * A watch line read in full with Jackson ({@link WatchLogReader#parse}): the object bound into its
 * whole fabric8 class. Every line the lean paths leave alone ends here, and the property tests
 * hold the lean paths to it; {@link #parseAsTree} is the older tree-then-bind path kept as the
 * yardstick of this one.
 */
final class FullWatchLine {
  /** Thread-safe once configured; shared by every reader. */
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .build();

  private FullWatchLine() {}

  /**
   * Parses one non-blank line, updating the inherited time when the line has a valid {@code at}.
   * One streaming pass: the line's own fields and the object's {@code kind} and {@code
   * apiVersion} are read as they come, the object's tokens are buffered and bound into its fabric8
   * class from the buffer (no JSON tree in between: building it was a third of a replay's reading).
   */
  static WatchLogItem parse(WatchLogReader reader, long number, String line) {
    JsonNode atNode = null;
    JsonNode typeNode = null;
    JsonNode kindNode = null;
    JsonNode apiVersionNode = null;
    TokenBuffer object = null;
    boolean isObject;
    // Trailing tokens are checked here, not with FAIL_ON_TRAILING_TOKENS: that feature also fires
    // inside fabric8's own deserializers (Quantity reads a sub-tree) and would refuse every Pod.
    try (JsonParser parser = MAPPER.createParser(line)) {
      JsonToken first = parser.nextToken();
      isObject = first == JsonToken.START_OBJECT;
      if (!isObject) {
        parser.skipChildren();
      }
      while (isObject && parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        parser.nextToken();
        switch (field) {
          case "at" -> atNode = MAPPER.readTree(parser);
          case "type" -> typeNode = MAPPER.readTree(parser);
          case "object" -> {
            // a later duplicate replaces an earlier one, as in a JSON tree
            kindNode = null;
            apiVersionNode = null;
            object = null;
            if (parser.currentToken() != JsonToken.START_OBJECT) {
              parser.skipChildren();
              continue;
            }
            object = new TokenBuffer(parser);
            object.writeStartObject();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
              String name = parser.currentName();
              object.writeFieldName(name);
              parser.nextToken();
              if (name.equals("kind") || name.equals("apiVersion")) {
                JsonNode value = MAPPER.readTree(parser);
                object.writeTree(value);
                if (name.equals("kind")) {
                  kindNode = value;
                } else {
                  apiVersionNode = value;
                }
              } else {
                object.copyCurrentStructure(parser);
              }
            }
            object.writeEndObject();
          }
          default -> parser.skipChildren();
        }
      }
      if (parser.nextToken() != null) {
        return new Malformed(number, "bad JSON: more than one value on the line");
      }
    } catch (IOException e) {
      return new Malformed(number, "bad JSON: " + WatchLogReader.detail(e));
    }
    if (!isObject) {
      return new Malformed(number, "not a JSON object");
    }
    TokenBuffer tokens = object;
    return reader.item(number, atNode, typeNode, object != null, kindNode, apiVersionNode,
        target -> MAPPER.readValue(tokens.asParser(MAPPER), target));
  }

  /**
   * The same line read the way the reader read it before {@link #parse}: a JSON tree, then the
   * object's subtree bound into fabric8.
   */
  static WatchLogItem parseAsTree(WatchLogReader reader, long number, String line) {
    JsonNode root;
    try (JsonParser parser = MAPPER.createParser(line)) {
      root = MAPPER.readTree(parser);
      if (parser.nextToken() != null) {
        return new Malformed(number, "bad JSON: more than one value on the line");
      }
    } catch (IOException e) {
      return new Malformed(number, "bad JSON: " + WatchLogReader.detail(e));
    }
    if (root == null || !root.isObject()) {
      return new Malformed(number, "not a JSON object");
    }
    JsonNode object = root.get("object");
    boolean hasObject = object != null && object.isObject();
    return reader.item(number, root.get("at"), root.get("type"), hasObject,
        hasObject ? object.get("kind") : null, hasObject ? object.get("apiVersion") : null,
        target -> MAPPER.treeToValue(object, target));
  }
}
