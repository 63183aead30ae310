package dev.kubeheadroom.kubereal.differential;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * What a server answered to one request, in the terms the product reads: the status code, the
 * Status' {@code reason}, {@code message} and {@code details} (kind, group, name, each cause's
 * field and reason), or for a success the fields of the result the product reads.
 */
record Answer(int code, String reason, String message, String details, String result) {

  /** Any 2xx: fabric8 does not tell 200 from 201. */
  static final int OK = 200;

  /** Calls {@code request}; its value (the fields the product reads of the result) or its refusal. */
  static Answer of(Callable<String> request) {
    try {
      return new Answer(OK, "", "", "", request.call());
    } catch (KubernetesClientException e) {
      return refused(e);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static Answer refused(KubernetesClientException e) {
    Status status = e.getStatus();
    if (status == null) {
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      return new Answer(e.getCode(), "", e.getMessage() + " (" + root + ")", "", "");
    }
    return new Answer(e.getCode(), nullToEmpty(status.getReason()), nullToEmpty(status.getMessage()),
        details(status.getDetails()), continueOf(status));
  }

  /** {@code value} as JSON with every map's keys sorted: servers differ in the order they keep. */
  static String sorted(Object value) {
    try {
      return SORTED.writeValueAsString(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper SORTED = io.fabric8.kubernetes.client.utils
      .Serialization.jsonMapper().copy()
      .configure(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  /** A watch that ended with an error: its Status. */
  static Answer refused(WatcherException e) {
    return refused(e.asClientException());
  }

  private static String details(StatusDetails d) {
    if (d == null) {
      return "";
    }
    List<String> causes = d.getCauses() == null ? List.of()
        : d.getCauses().stream().map(c -> c.getField() + ":" + c.getReason()).toList();
    return "kind=" + d.getKind() + " group=" + d.getGroup() + " name=" + d.getName() + " causes=" + causes
        + (d.getRetryAfterSeconds() == null ? "" : " retryAfter=" + d.getRetryAfterSeconds());
  }

  /** A 410 on a LIST carries a token to go on inconsistently: whether there is one. */
  private static String continueOf(Status status) {
    return status.getMetadata() != null && status.getMetadata().getContinue() != null
        ? "continue token" : "";
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
