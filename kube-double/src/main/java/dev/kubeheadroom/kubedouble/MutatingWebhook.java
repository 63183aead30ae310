package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kubeheadroom.kubedouble.WebhookCaller.CallException;
import dev.kubeheadroom.kubedouble.WebhookCaller.Target;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * One entry of a stored {@code admissionregistration.k8s.io/v1} MutatingWebhookConfiguration, read
 * with the defaults the API server fills in when it stores one ({@code SetDefaults_MutatingWebhook}:
 * failurePolicy Fail, timeoutSeconds 10, selectors {@code {}}, rule scope {@code *}, service port
 * 443).
 *
 * @param configuration the configuration's {@code metadata.name}
 * @param spec the webhook's JSON as stored
 */
record MutatingWebhook(String configuration, JsonNode spec) {
  private static final int DEFAULT_TIMEOUT_SECONDS = 10;
  private static final int MAX_TIMEOUT_SECONDS = 30;

  /** The webhooks of one configuration, in their order. */
  static List<MutatingWebhook> of(JsonNode configuration) {
    String name = configuration.path("metadata").path("name").asText("");
    List<MutatingWebhook> hooks = new ArrayList<>();
    configuration.path("webhooks").forEach(hook -> hooks.add(new MutatingWebhook(name, hook)));
    return hooks;
  }

  String name() {
    return spec.path("name").asText("");
  }

  /** {@code failurePolicy: Ignore}; anything else (the default included) is Fail. */
  boolean failsOpen() {
    return "Ignore".equals(spec.path("failurePolicy").asText("Fail"));
  }

  /** {@code timeoutSeconds}, default 10; validation bounds it to 1..30. */
  Duration timeout() {
    int seconds = spec.path("timeoutSeconds").asInt(DEFAULT_TIMEOUT_SECONDS);
    return Duration.ofSeconds(Math.max(1, Math.min(MAX_TIMEOUT_SECONDS, seconds)));
  }

  Optional<String> sideEffects() {
    return spec.hasNonNull("sideEffects") ? Optional.of(spec.get("sideEffects").asText()) : Optional.empty();
  }

  boolean acceptsReviewV1() {
    for (JsonNode version : spec.path("admissionReviewVersions")) {
      if (version.asText().equals("v1")) {
        return true;
      }
    }
    return false;
  }

  JsonNode namespaceSelector() {
    return spec.path("namespaceSelector");
  }

  JsonNode objectSelector() {
    return spec.path("objectSelector");
  }

  /**
   * Whether one of the {@code rules} matches the request, as {@code predicates/rules/rules.go}
   * decides: operation, group, version and resource are exact or {@code *}; a resource
   * {@code pods/*} also covers the pod itself; scope {@code Namespaced} needs a namespace.
   */
  boolean matchesRules(String operation, String group, String version, String resource, String subresource,
      boolean namespaced) {
    for (JsonNode rule : spec.path("rules")) {
      String scope = rule.path("scope").asText("*");
      boolean scopeMatches = scope.equals("*") || (scope.equals("Namespaced") ? namespaced
          : scope.equals("Cluster") && !namespaced);
      if (scopeMatches && exactOrWildcard(rule.path("operations"), operation)
          && exactOrWildcard(rule.path("apiGroups"), group)
          && exactOrWildcard(rule.path("apiVersions"), version)
          && resourceMatches(rule.path("resources"), resource, subresource)) {
        return true;
      }
    }
    return false;
  }

  private static boolean exactOrWildcard(JsonNode items, String requested) {
    for (JsonNode item : items) {
      if (item.asText().equals("*") || item.asText().equals(requested)) {
        return true;
      }
    }
    return false;
  }

  private static boolean resourceMatches(JsonNode resources, String resource, String subresource) {
    for (JsonNode item : resources) {
      String[] parts = item.asText().split("/", 2);
      String sub = parts.length == 2 ? parts[1] : "";
      if ((parts[0].equals("*") || parts[0].equals(resource)) && (sub.equals("*") || sub.equals(subresource))) {
        return true;
      }
    }
    return false;
  }

  /** The PEM bytes of {@code clientConfig.caBundle} (base64 in JSON), empty when absent. */
  byte[] caBundle() throws CallException {
    String encoded = spec.path("clientConfig").path("caBundle").asText("");
    try {
      return Base64.getDecoder().decode(encoded);
    } catch (IllegalArgumentException e) {
      throw new CallException("could not get REST client: caBundle is not base64: " + e.getMessage());
    }
  }

  /**
   * Where to send the review: {@code clientConfig.url}, or {@code clientConfig.service} resolved
   * through {@code routes} and verified as {@code NAME.NAMESPACE.svc}. The request carries the
   * {@code ?timeout=Ns} the API server's client adds.
   */
  Target target(ServiceRoutes routes) throws CallException {
    JsonNode client = spec.path("clientConfig");
    String timeoutQuery = "?timeout=" + timeout().toSeconds() + "s";
    if (client.hasNonNull("url")) {
      URI url;
      try {
        url = URI.create(client.get("url").asText());
      } catch (IllegalArgumentException e) {
        throw new CallException("could not get REST client: invalid url: " + e.getMessage());
      }
      if (url.getHost() == null) {
        throw new CallException("could not get REST client: url has no host: " + url);
      }
      int port = url.getPort() < 0 ? 443 : url.getPort();
      String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
      return new Target(url.toString(), url.getHost(), new InetSocketAddress(url.getHost(), port), path + timeoutQuery);
    }
    JsonNode service = client.path("service");
    String namespace = service.path("namespace").asText("");
    String name = service.path("name").asText("");
    int port = service.path("port").asInt(443);
    String path = service.path("path").asText("/");
    String host = name + "." + namespace + ".svc";
    String url = "https://" + host + ":" + port + path;
    InetSocketAddress address = routes.resolve(namespace, name, port)
        .orElseThrow(() -> new CallException("failed to call webhook: Post \"" + url + timeoutQuery
            + "\": service \"" + name + "\" not found (kube-double: no route for " + namespace + "/" + name
            + ":" + port + "; see ApiServerDouble.routeService)"));
    return new Target(url + timeoutQuery, host, address, path + timeoutQuery);
  }
}
