package dev.kubeheadroom.kubedouble;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * The authorization attributes of one request, derived from the method and URL as kube-apiserver's
 * {@code RequestInfoFactory.NewRequestInfo} does
 * ({@code staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go}):
 * <ul>
 *   <li>only {@code /api/VERSION/...} and {@code /apis/GROUP/VERSION/...} with a resource are
 *       resource requests; {@code /version}, {@code /api}, {@code /apis/GROUP/VERSION},
 *       {@code /healthz}, {@code /openapi/v3} ... are non-resource requests whose verb is the
 *       lower-cased HTTP method;</li>
 *   <li>POST create, GET get, PUT update, PATCH patch, DELETE delete; a GET without a name is
 *       list, or watch with {@code watch=true|1}; a DELETE without a name deletecollection;
 *       {@code /watch/...} and {@code /proxy/...} path prefixes set the verb themselves;</li>
 *   <li>{@code namespaces/NS/RESOURCE/NAME/SUBRESOURCE}; {@code namespaces/NS/status|finalize} is
 *       a subresource of the namespace itself;</li>
 *   <li>a list or watch with {@code fieldSelector=metadata.name=X} is for name X.</li>
 * </ul>
 */
public record RequestAttributes(
    String verb,
    boolean resourceRequest,
    String path,
    String apiGroup,
    String apiVersion,
    String namespace,
    String resource,
    String subresource,
    String name) {

  private static final Set<String> SPECIAL_VERBS = Set.of("proxy", "watch");
  private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

  public RequestAttributes {
    Objects.requireNonNull(verb, "verb");
    Objects.requireNonNull(path, "path");
    apiGroup = Objects.requireNonNullElse(apiGroup, "");
    apiVersion = Objects.requireNonNullElse(apiVersion, "");
    namespace = Objects.requireNonNullElse(namespace, "");
    resource = Objects.requireNonNullElse(resource, "");
    subresource = Objects.requireNonNullElse(subresource, "");
    name = Objects.requireNonNullElse(name, "");
  }

  /** {@code resource/subresource} as RBAC rules name it ({@code pods/resize}), or the resource. */
  public String resourceWithSubresource() {
    return subresource.isEmpty() ? resource : resource + "/" + subresource;
  }

  static RequestAttributes of(String method, String rawPath) {
    int q = rawPath.indexOf('?');
    String path = q < 0 ? rawPath : rawPath.substring(0, q);
    String query = q < 0 ? "" : rawPath.substring(q + 1);
    String httpVerb = method.toLowerCase(Locale.ROOT);
    List<String> parts = Arrays.stream(path.split("/")).filter(p -> !p.isEmpty()).toList();
    RequestAttributes nonResource = new RequestAttributes(httpVerb, false, path, "", "", "", "", "", "");
    if (parts.size() < 3 || !(parts.get(0).equals("api") || parts.get(0).equals("apis"))) {
      return nonResource;
    }
    int i = 1;
    String group = "";
    if (parts.get(0).equals("apis")) {
      if (parts.size() < 4) {
        return nonResource;
      }
      group = parts.get(i++);
    }
    String version = parts.get(i++);
    String verb;
    if (SPECIAL_VERBS.contains(parts.get(i)) && i + 1 < parts.size()) {
      verb = parts.get(i++);
    } else {
      verb = switch (method.toUpperCase(Locale.ROOT)) {
        case "POST" -> "create";
        case "GET", "HEAD" -> "get";
        case "PUT" -> "update";
        case "PATCH" -> "patch";
        case "DELETE" -> "delete";
        default -> "";
      };
    }
    List<String> rest = parts.subList(i, parts.size());
    String namespace = "";
    if (rest.get(0).equals("namespaces") && rest.size() > 1) {
      namespace = rest.get(1);
      if (rest.size() > 2 && !NAMESPACE_SUBRESOURCES.contains(rest.get(2))) {
        rest = rest.subList(2, rest.size());
      }
    }
    String resource = rest.get(0);
    String name = rest.size() >= 2 ? rest.get(1) : "";
    String subresource = rest.size() >= 3 && !verb.equals("proxy") ? rest.get(2) : "";
    if (name.isEmpty() && verb.equals("get")) {
      verb = isTrue(parameter(query, "watch")) ? "watch" : "list";
      name = exactName(parameter(query, "fieldSelector"));
    }
    if (name.isEmpty() && verb.equals("delete")) {
      verb = "deletecollection";
    }
    return new RequestAttributes(verb, true, path, group, version, namespace, resource, subresource, name);
  }

  private static boolean isTrue(String value) {
    // metav1.ListOptions.Watch decodes with strconv.ParseBool
    return switch (value) {
      case "1", "t", "T", "true", "TRUE", "True" -> true;
      default -> false;
    };
  }

  private static String parameter(String query, String key) {
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      if (k.equals(key)) {
        return eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      }
    }
    return "";
  }

  /** {@code fields.Selector.RequiresExactMatch("metadata.name")}: one {@code =}/{@code ==} term on it. */
  private static String exactName(String selector) {
    for (String term : selector.split(",")) {
      String[] kv = term.split("==?", 2);
      if (kv.length == 2 && !term.contains("!=") && kv[0].trim().equals("metadata.name")) {
        String name = kv[1].trim();
        return name.matches("[^/%]+") && !name.equals(".") && !name.equals("..") ? name : "";
      }
    }
    return "";
  }
}
