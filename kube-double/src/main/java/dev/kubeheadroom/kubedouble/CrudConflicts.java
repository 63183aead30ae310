package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The stock CRUD mock's 409s (a create of an existing object, a write from a stale
 * resourceVersion) reworded as kube-apiserver's {@code NewAlreadyExists} / {@code NewConflict}
 * word them: the mock answers reason {@code Invalid}, the kind for the resource and no name in
 * the details ({@code CallsDifferentialTest}/{@code RefusalsDifferentialTest} in kube-real
 * compare the two servers).
 */
final class CrudConflicts {
  private static final Pattern QUOTED_NAME = Pattern.compile("['\"]([^'\"]+)['\"]");

  private CrudConflicts() {}

  static MockResponse reworded(ApiRequest api, MockResponse response) {
    if (response.code() != 409 || response.getBody() == null) {
      return response;
    }
    String message;
    try {
      message = Serialization.jsonMapper().readTree(new String(response.getBody().getBytes(), StandardCharsets.UTF_8))
          .path("message").asText("");
    } catch (IOException notJson) {
      return response;
    }
    boolean exists = message.contains("already exists");
    Matcher quoted = QUOTED_NAME.matcher(message);
    String name = quoted.find() ? quoted.group(1) : api.name();
    String qualified = api.group().isEmpty() ? api.resource() : api.resource() + "." + api.group();
    ObjectNode status = Serialization.jsonMapper().createObjectNode();
    status.put("kind", "Status").put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Failure");
    status.put("message", exists ? qualified + " \"" + name + "\" already exists"
        : "Operation cannot be fulfilled on " + qualified + " \"" + name
            + "\": the object has been modified; please apply your changes to the latest version and try again");
    status.put("reason", exists ? "AlreadyExists" : "Conflict");
    ObjectNode details = status.putObject("details").put("name", name);
    if (!api.group().isEmpty()) {
      details.put("group", api.group());
    }
    details.put("kind", api.resource());
    status.put("code", 409);
    return new MockResponse().setResponseCode(409).setHeader("Content-Type", "application/json")
        .setBody(status.toString());
  }
}
