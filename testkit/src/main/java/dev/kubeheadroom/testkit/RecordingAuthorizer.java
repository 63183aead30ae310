package dev.kubeheadroom.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.metadata.authorizer.StandardAuthorizer;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;

/**
 * Kafka's {@link StandardAuthorizer}, deciding exactly as it does, that also notes every decision
 * it makes: what each principal asked for and whether it was allowed. A secured broker's test
 * learns from it which grants a client used and which it was refused. Set it with {@code
 * authorizer.class.name} ({@link #CONFIG}); the broker creates it by name, so the journal is
 * one per JVM: {@link #clear} it before a run.
 */
public class RecordingAuthorizer extends StandardAuthorizer {
  /** {@code authorizer.class.name=} this class. */
  public static final Map<String, String> CONFIG =
      Map.of("authorizer.class.name", RecordingAuthorizer.class.getName());

  private static final Queue<Decision> JOURNAL = new ConcurrentLinkedQueue<>();

  /**
   * One authorization.
   *
   * @param principal e.g. {@code User:headroom-ingest}
   * @param request the Kafka API asked for (e.g. {@code FETCH})
   * @param audited false for the checks Kafka makes only to filter a listing (a topic the
   *     principal may not describe is left out, nothing is refused)
   */
  public record Decision(String principal, String request, ResourceType type, String name, AclOperation operation,
      boolean allowed, boolean audited) {
    @Override
    public String toString() {
      return principal + (allowed ? " allowed " : " DENIED ") + operation + " on " + type + ":" + name
          + " (" + request + ")";
    }
  }

  @Override
  public List<AuthorizationResult> authorize(AuthorizableRequestContext context, List<Action> actions) {
    List<AuthorizationResult> results = super.authorize(context, actions);
    String principal = context.principal().toString();
    String request = ApiKeys.hasId(context.requestType()) ? ApiKeys.forId(context.requestType()).name() : "?";
    for (int i = 0; i < actions.size(); i++) {
      Action a = actions.get(i);
      boolean allowed = results.get(i) == AuthorizationResult.ALLOWED;
      JOURNAL.add(new Decision(principal, request, a.resourcePattern().resourceType(), a.resourcePattern().name(),
          a.operation(), allowed, allowed ? a.logIfAllowed() : a.logIfDenied()));
    }
    return results;
  }

  /** Every decision since the last {@link #clear}, in order. */
  public static List<Decision> decisions() {
    return new ArrayList<>(JOURNAL);
  }

  public static void clear() {
    JOURNAL.clear();
  }
}
