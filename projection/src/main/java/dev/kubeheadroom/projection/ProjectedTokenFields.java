package dev.kubeheadroom.projection;

import static dev.kubeheadroom.projection.JsonBytes.REFUSED;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;

/**
 * {@link FieldCursor} over Jackson's tokens of a watch line ({@link ProjectedWatchLine}): a token
 * of another shape than the field table expects, or a parse error, is {@link JsonBytes#REFUSED}.
 * Strings are made fresh (the parser has no cache to share them from).
 */
final class ProjectedTokenFields implements FieldCursor {
  private final JsonParser p;
  private FieldName fieldName = FieldName.OTHER;

  ProjectedTokenFields(JsonParser p) {
    this.p = p;
  }

  @Override
  public boolean field() {
    try {
      if (p.nextToken() != JsonToken.FIELD_NAME) {
        return false;
      }
      fieldName = FieldName.named(p.currentName());
      p.nextToken();
      return true;
    } catch (IOException e) {
      throw REFUSED;
    }
  }

  @Override
  public FieldName fieldName() {
    return fieldName;
  }

  @Override
  public String key() {
    try {
      return p.currentName();
    } catch (IOException e) {
      throw REFUSED;
    }
  }

  @Override
  public void startObject() {
    expect(JsonToken.START_OBJECT);
  }

  @Override
  public void startArray() {
    expect(JsonToken.START_ARRAY);
  }

  @Override
  public boolean element() {
    try {
      return p.nextToken() != JsonToken.END_ARRAY;
    } catch (IOException e) {
      throw REFUSED;
    }
  }

  @Override
  public String string() {
    expect(JsonToken.VALUE_STRING);
    try {
      return p.getText();
    } catch (IOException e) {
      throw REFUSED;
    }
  }

  @Override
  public String shared() {
    return string();
  }

  @Override
  public long integer() {
    try {
      if (p.currentToken() != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
        throw REFUSED;
      }
      return p.getLongValue();
    } catch (IOException e) {
      throw REFUSED;
    }
  }

  @Override
  public Boolean bool() {
    return switch (p.currentToken()) {
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      default -> throw REFUSED;
    };
  }

  @Override
  public Quantity quantity() {
    String text = string();
    try {
      return new Quantity(text);
    } catch (RuntimeException e) {
      throw REFUSED; // the full path reports it as the line's reason
    }
  }

  @Override
  public void skipValue() {
    try {
      p.skipChildren();
    } catch (IOException e) {
      throw REFUSED;
    }
  }

  private void expect(JsonToken token) {
    if (p.currentToken() != token) {
      throw REFUSED;
    }
  }
}
