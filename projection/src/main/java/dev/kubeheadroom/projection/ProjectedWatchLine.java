package dev.kubeheadroom.projection;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;

/**
 * One watch line read the lean way ({@link WatchLogReader#forProjection}): a Pod or Node line in
 * the plain shape the API server writes ({@code apiVersion} and {@code kind} first in the object,
 * strings where strings belong) is bound by {@link ProjectedFields}, straight from the tokens ({@link ProjectedTokenFields});
 * any other line is left to the full path (null), which then says what it says of it.
 */
final class ProjectedWatchLine {
  private static final JsonFactory JSON = new JsonFactory();

  private ProjectedWatchLine() {}

  /** The line's item, or null when the full path must read it. */
  static WatchLogItem parse(WatchLogReader reader, long number, String line) {
    try (JsonParser p = JSON.createParser(line)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      TextNode at = null;
      TextNode type = null;
      String apiVersion = null;
      String kind = null;
      HasMetadata object = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        switch (field) {
          case "at", "type" -> {
            if (value != JsonToken.VALUE_STRING) {
              return null;
            }
            TextNode text = TextNode.valueOf(p.getText());
            if (field.equals("at")) {
              at = text;
            } else {
              type = text;
            }
          }
          case "object" -> {
            if (object != null || value != JsonToken.START_OBJECT) {
              return null; // a second object, or none: the full path's rules
            }
            for (int i = 0; i < 2; i++) {
              if (p.nextToken() != JsonToken.FIELD_NAME) {
                return null;
              }
              String name = p.currentName();
              if (p.nextToken() != JsonToken.VALUE_STRING) {
                return null;
              }
              if (name.equals("apiVersion") && apiVersion == null) {
                apiVersion = p.getText();
              } else if (name.equals("kind") && kind == null) {
                kind = p.getText();
              } else {
                return null;
              }
            }
            Class<? extends HasMetadata> target = WatchLogReader.targetClass(apiVersion, kind);
            if (target == Pod.class) {
              object = ProjectedFields.pod(new ProjectedTokenFields(p));
            } else if (target == Node.class) {
              object = ProjectedFields.node(new ProjectedTokenFields(p));
            } else {
              return null;
            }
          }
          default -> p.skipChildren();
        }
      }
      if (object == null || p.nextToken() != null) {
        return null;
      }
      HasMetadata bound = object;
      return reader.item(number, at, type, true, TextNode.valueOf(kind), TextNode.valueOf(apiVersion),
          target -> bound);
    } catch (IOException | JsonBytes.Refused e) {
      return null; // bad JSON, or a shape ProjectedFields leaves to the full path
    }
  }
}
