package dev.kubeheadroom.kubedouble;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One HTTP request to the API server, parsed into the Kubernetes request attributes the real
 * server derives (verb, group, version, namespace, resource, name, subresource).
 *
 * <p>Paths that are not resource paths ({@code /version}, {@code /apis} discovery) parse with an
 * empty resource.
 */
public record ApiRequest(
    Verb verb,
    String path,
    String group,
    String version,
    String namespace,
    String resource,
    String name,
    String subresource,
    Map<String, String> query,
    String contentType,
    String userAgent) {

  public ApiRequest {
    Objects.requireNonNull(verb, "verb");
    Objects.requireNonNull(path, "path");
    query = Map.copyOf(query);
  }

  /** Kubernetes request verbs; GET on a collection is LIST, and with {@code watch=true} WATCH. */
  public enum Verb { GET, LIST, WATCH, CREATE, UPDATE, PATCH, DELETE, OTHER }

  static ApiRequest parse(String method, String rawPath, String contentType, String userAgent) {
    int q = rawPath.indexOf('?');
    String pathOnly = q < 0 ? rawPath : rawPath.substring(0, q);
    Map<String, String> query = q < 0 ? Map.of() : parseQuery(rawPath.substring(q + 1));
    List<String> segments = List.of(pathOnly.replaceAll("^/+|/+$", "").split("/"));
    String group = "";
    String version = "";
    int i;
    if (segments.size() >= 2 && segments.get(0).equals("api")) {
      version = segments.get(1);
      i = 2;
    } else if (segments.size() >= 3 && segments.get(0).equals("apis")) {
      group = segments.get(1);
      version = segments.get(2);
      i = 3;
    } else {
      i = segments.size();
    }
    String namespace = "";
    if (i + 1 < segments.size() && segments.get(i).equals("namespaces") && i + 2 < segments.size()) {
      namespace = segments.get(i + 1);
      i += 2;
    }
    String resource = i < segments.size() ? segments.get(i) : "";
    String name = i + 1 < segments.size() ? segments.get(i + 1) : "";
    String subresource = i + 2 < segments.size() ? segments.get(i + 2) : "";
    if (resource.equals("namespaces") && namespace.isEmpty() && !name.isEmpty()) {
      namespace = name;
    }
    boolean watch = "true".equals(query.get("watch")) || "1".equals(query.get("watch"));
    Verb verb = switch (method.toUpperCase()) {
      case "GET" -> watch ? Verb.WATCH : name.isEmpty() ? Verb.LIST : Verb.GET;
      case "POST" -> Verb.CREATE;
      case "PUT" -> Verb.UPDATE;
      case "PATCH" -> Verb.PATCH;
      case "DELETE" -> Verb.DELETE;
      default -> Verb.OTHER;
    };
    return new ApiRequest(verb, rawPath, group, version, namespace, resource, name, subresource,
        query, contentType == null ? "" : contentType, userAgent == null ? "" : userAgent);
  }

  private static Map<String, String> parseQuery(String rawQuery) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      out.put(key, value);
    }
    return out;
  }

  boolean isPods() {
    return group.isEmpty() && resource.equals("pods");
  }

  /** {@code ns/name} of the object the request names, for messages. */
  String objectKey() {
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }

  @Override
  public String toString() {
    return verb + " " + path;
  }
}
