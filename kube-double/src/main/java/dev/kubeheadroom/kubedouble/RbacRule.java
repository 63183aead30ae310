package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code rbac.authorization.k8s.io/v1} PolicyRule and whether it allows a request, as
 * {@code pkg/apis/rbac/v1/evaluation_helpers.go} (VerbMatches, APIGroupMatches, ResourceMatches,
 * ResourceNameMatches, NonResourceURLMatches) and rbac.go {@code RuleAllows} decide it.
 */
record RbacRule(List<String> verbs, List<String> apiGroups, List<String> resources,
    List<String> resourceNames, List<String> nonResourceURLs) {
  private static final String ALL = "*";

  RbacRule {
    verbs = List.copyOf(verbs);
    apiGroups = List.copyOf(apiGroups);
    resources = List.copyOf(resources);
    resourceNames = List.copyOf(resourceNames);
    nonResourceURLs = List.copyOf(nonResourceURLs);
  }

  static RbacRule nonResource(List<String> verbs, List<String> urls) {
    return new RbacRule(verbs, List.of(), List.of(), List.of(), urls);
  }

  /** A rule as stored; a missing list is empty (and matches nothing, except resourceNames). */
  static RbacRule of(JsonNode rule) {
    return new RbacRule(strings(rule.path("verbs")), strings(rule.path("apiGroups")),
        strings(rule.path("resources")), strings(rule.path("resourceNames")),
        strings(rule.path("nonResourceURLs")));
  }

  boolean allows(RequestAttributes request) {
    if (!verbs.contains(ALL) && !verbs.contains(request.verb())) {
      return false;
    }
    if (!request.resourceRequest()) {
      return nonResourceURLs.stream().anyMatch(url -> url.equals(ALL) || url.equals(request.path())
          || url.endsWith(ALL) && request.path().startsWith(url.substring(0, url.length() - 1)));
    }
    return (apiGroups.contains(ALL) || apiGroups.contains(request.apiGroup()))
        && resourceMatches(request.resourceWithSubresource(), request.subresource())
        && (resourceNames.isEmpty() || resourceNames.contains(request.name()));
  }

  private boolean resourceMatches(String combined, String subresource) {
    for (String resource : resources) {
      if (resource.equals(ALL) || resource.equals(combined)) {
        return true;
      }
      if (!subresource.isEmpty() && resource.equals("*/" + subresource)) {
        return true;
      }
    }
    return false;
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(item -> out.add(item.asText()));
    return out;
  }
}
