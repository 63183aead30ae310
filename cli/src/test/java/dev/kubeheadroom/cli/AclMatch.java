package dev.kubeheadroom.cli;

import dev.kubeheadroom.schemas.KafkaAcls;
import dev.kubeheadroom.testkit.RecordingAuthorizer.Decision;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;

/** Whether a grant's operation allowed an authorizer's decision, by Kafka's matching rules. */
final class AclMatch {
  private AclMatch() {}

  static boolean covers(KafkaAcls.Grant grant, AclOperation op, Decision d) {
    if (grant.type() != d.type()) {
      return false;
    }
    boolean name = grant.pattern() == PatternType.PREFIXED ? d.name().startsWith(grant.name())
        : grant.name().equals(d.name());
    return name && implies(op, d.operation());
  }

  /** Kafka's implications: Read, Write, Delete and Alter allow Describe; AlterConfigs allows DescribeConfigs. */
  static boolean implies(AclOperation granted, AclOperation asked) {
    if (granted == asked || granted == AclOperation.ALL) {
      return true;
    }
    return switch (asked) {
      case DESCRIBE -> granted == AclOperation.READ || granted == AclOperation.WRITE
          || granted == AclOperation.DELETE || granted == AclOperation.ALTER;
      case DESCRIBE_CONFIGS -> granted == AclOperation.ALTER_CONFIGS;
      default -> false;
    };
  }
}
