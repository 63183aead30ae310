package dev.kubeheadroom.schemas;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * What each Headroom identity needs from a Kafka that runs an ACL authorizer with {@code
 * allow.everyone.if.no.acl.found=false}: the one statement of it. docs/running-beside-kafka.md's
 * table is {@link #markdown} of it (a test keeps them equal), and the secured-broker test grants
 * exactly {@link #bindings} to each stage and runs it.
 *
 * <p>No cluster ACL is needed: an idempotent producer is allowed {@code IdempotentWrite} by its
 * {@code Write} on a topic, and no stage alters configs or partitions.
 */
public final class KafkaAcls {
  private KafkaAcls() {}

  /** The principals Headroom's processes run as, one each. */
  public enum Identity {
    INGEST("ingest"),
    TOPOLOGY("topology"),
    ACTUATOR("actuator"),
    WEBHOOK("webhook"),
    /** {@code kubectl headroom audit} and {@code explain}: a read-only identity of their own. */
    AUDIT("audit, explain");

    private final String label;

    Identity(String label) {
      this.label = label;
    }

    /** How the docs name it. */
    public String label() {
      return label;
    }
  }

  /** When a grant is needed. */
  public enum When {
    ALWAYS,
    /** Only with {@code --topic-create=true} (the default): the stage creates missing topics. */
    TOPIC_CREATE
  }

  /**
   * The names the grants are about.
   *
   * @param applicationId the topology's Streams application id (its group, changelog and
   *     transactional id prefix)
   * @param actuatorGroupId the actuator's consumer group
   */
  public record Names(Topics topics, String applicationId, String actuatorGroupId) {
    public Names {
      Objects.requireNonNull(topics, "topics");
      Objects.requireNonNull(applicationId, "applicationId");
      Objects.requireNonNull(actuatorGroupId, "actuatorGroupId");
    }

    /** The defaults under {@code prefix}: {@code <prefix>topology}, {@code <prefix>actuator}. */
    public static Names under(Topics topics) {
      return new Names(topics, topics.topologyApplicationId(), topics.actuatorGroupId());
    }
  }

  /** One ACL entry's worth: operations on one resource pattern, for one identity. */
  public record Grant(
      Identity identity, ResourceType type, String name, PatternType pattern, List<AclOperation> operations,
      When when, String why) {
    public Grant {
      operations = List.copyOf(operations);
    }

    /** One allow binding per operation, for {@code principal} (e.g. {@code User:headroom-ingest}) from any host. */
    public List<AclBinding> bindings(String principal) {
      ResourcePattern resource = new ResourcePattern(type, name, pattern);
      return operations.stream()
          .map(op -> new AclBinding(resource, new AccessControlEntry(principal, "*", op, AclPermissionType.ALLOW)))
          .toList();
    }
  }

  /** Every identity's grants, in the docs' order. */
  public static List<Grant> grants(Names n) {
    Topics t = n.topics();
    List<Grant> g = new ArrayList<>();
    for (Identity stage : List.of(Identity.INGEST, Identity.TOPOLOGY, Identity.ACTUATOR, Identity.WEBHOOK)) {
      g.add(new Grant(stage, ResourceType.TOPIC, t.prefix(), PatternType.PREFIXED, List.of(AclOperation.DESCRIBE),
          When.ALWAYS, "lists and describes the topics at start (their partition counts)"));
      g.add(new Grant(stage, ResourceType.TOPIC, t.prefix(), PatternType.PREFIXED, List.of(AclOperation.CREATE),
          When.TOPIC_CREATE, "creates the topics missing at start"));
      g.addAll(stageGrants(stage, n));
    }
    g.add(topics(Identity.AUDIT, List.of(AclOperation.READ), When.ALWAYS,
        "replays the history (assigned, no group)",
        t.pods(), t.nodes(), t.namespaces(), t.config(), t.decisions(), t.outcomes(), t.checkpoints()));
    return List.copyOf(g);
  }

  private static List<Grant> stageGrants(Identity stage, Names n) {
    Topics t = n.topics();
    List<AclOperation> read = List.of(AclOperation.READ);
    List<AclOperation> write = List.of(AclOperation.WRITE);
    return switch (stage) {
      case INGEST -> List.of(
          topics(stage, write, When.ALWAYS, "publishes the cluster (idempotent producer, acks=all)",
              t.pods(), t.nodes(), t.namespaces(), t.config()),
          topics(stage, read, When.ALWAYS, "reports which config the topology applies (assigned, no group)",
              t.decisions()));
      case TOPOLOGY -> List.of(
          topics(stage, read, When.ALWAYS, "its inputs (namespaces and config as global tables)",
              t.pods(), t.nodes(), t.outcomes(), t.namespaces(), t.config(), t.gangMembers(), t.gangCeilings()),
          topics(stage, write, When.ALWAYS, "its outputs, in exactly-once transactions",
              t.decisions(), t.deadLetter(), t.checkpoints(), t.gangMembers(), t.gangCeilings()),
          new Grant(stage, ResourceType.TOPIC, n.applicationId() + "-", PatternType.PREFIXED,
              List.of(AclOperation.CREATE, AclOperation.READ, AclOperation.WRITE), When.ALWAYS,
              "Streams creates, restores and writes its changelogs"),
          new Grant(stage, ResourceType.GROUP, n.applicationId(), PatternType.LITERAL, read, When.ALWAYS,
              "the Streams application's consumer group"),
          new Grant(stage, ResourceType.TRANSACTIONAL_ID, n.applicationId() + "-", PatternType.PREFIXED,
              List.of(AclOperation.WRITE, AclOperation.DESCRIBE), When.ALWAYS,
              "exactly-once v2: one transactional id per stream thread"));
      case ACTUATOR -> List.of(
          topics(stage, read, When.ALWAYS, "decisions in its group; namespaces and config assigned, no group",
              t.decisions(), t.namespaces(), t.config()),
          topics(stage, write, When.ALWAYS, "resize outcomes and unusable decisions (idempotent, acks=all)",
              t.outcomes(), t.deadLetter()),
          new Grant(stage, ResourceType.GROUP, n.actuatorGroupId(), PatternType.LITERAL, read, When.ALWAYS,
              "the actuators' consumer group on decisions"));
      case WEBHOOK -> List.of(
          topics(stage, read, When.ALWAYS, "namespace caps and the config (assigned, no group)",
              t.namespaces(), t.config()));
      case AUDIT -> List.of();
    };
  }

  /** One grant over several literal topics, rendered as one row; {@link #expand} splits it. */
  private static Grant topics(Identity who, List<AclOperation> ops, When when, String why, String... names) {
    return new Grant(who, ResourceType.TOPIC, String.join(",", names), PatternType.LITERAL, ops, when, why);
  }

  /** The grants of one identity as bindings for {@code principal}; {@code topicCreate} adds the create grants. */
  public static List<AclBinding> bindings(Identity identity, String principal, Names n, boolean topicCreate) {
    return grants(n).stream()
        .filter(g -> g.identity() == identity && (topicCreate || g.when() == When.ALWAYS))
        .flatMap(g -> expand(g).stream())
        .flatMap(g -> g.bindings(principal).stream())
        .toList();
  }

  /** A multi-topic row as one grant per topic. */
  public static List<Grant> expand(Grant g) {
    if (g.pattern() != PatternType.LITERAL || !g.name().contains(",")) {
      return List.of(g);
    }
    return List.of(g.name().split(",")).stream()
        .map(name -> new Grant(g.identity(), g.type(), name, g.pattern(), g.operations(), g.when(), g.why()))
        .toList();
  }

  /** docs/running-beside-kafka.md's ACL table under {@code n}'s names. */
  public static String markdown(Names n) {
    StringBuilder md = new StringBuilder(
        "| identity | resource | name | pattern | operations | when | why |\n"
            + "| --- | --- | --- | --- | --- | --- | --- |\n");
    for (Grant g : grants(n)) {
      String names = List.of(g.name().split(",")).stream().map(s -> "`" + s + "`").collect(Collectors.joining(", "));
      md.append("| ").append(g.identity().label())
          .append(" | ").append(lower(g.type().name()))
          .append(" | ").append(names)
          .append(" | ").append(lower(g.pattern().name()))
          .append(" | ").append(g.operations().stream().map(op -> camel(op.name())).collect(Collectors.joining(", ")))
          .append(" | ").append(g.when() == When.ALWAYS ? "always" : "`--topic-create=true`")
          .append(" | ").append(g.why()).append(" |\n");
    }
    return md.toString();
  }

  /** The same grants as {@code kafka-acls} commands, principals {@code User:headroom-<identity>}. */
  public static String commands(Names n) {
    StringBuilder sh = new StringBuilder();
    for (Grant row : grants(n)) {
      for (Grant g : expand(row)) {
        String principal = "User:headroom-" + lower(g.identity().name());
        sh.append("kafka-acls --add --allow-principal ").append(principal);
        g.operations().forEach(op -> sh.append(" --operation ").append(camel(op.name())));
        sh.append(" --").append(option(g.type())).append(' ').append(g.name());
        if (g.pattern() == PatternType.PREFIXED) {
          sh.append(" --resource-pattern-type prefixed");
        }
        sh.append('\n');
      }
    }
    return sh.toString();
  }

  private static String option(ResourceType type) {
    return switch (type) {
      case TOPIC -> "topic";
      case GROUP -> "group";
      case TRANSACTIONAL_ID -> "transactional-id";
      default -> throw new IllegalArgumentException("no grant on " + type);
    };
  }

  private static String lower(String name) {
    return name.toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** {@code DESCRIBE_CONFIGS} → {@code DescribeConfigs}, as Kafka's CLI spells operations. */
  private static String camel(String name) {
    StringBuilder s = new StringBuilder();
    for (String part : name.toLowerCase(Locale.ROOT).split("_")) {
      s.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
    }
    return s.toString();
  }
}
