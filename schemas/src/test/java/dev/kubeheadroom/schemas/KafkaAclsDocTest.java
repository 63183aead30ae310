package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

/**
 * docs/running-beside-kafka.md's ACL table and commands are {@link KafkaAcls}' (the secured-broker
 * test in cli runs every stage on exactly those grants). Regenerate with {@code mvn -pl schemas
 * -am verify -Dtest=KafkaAclsDocTest -Dheadroom.docs.write=true}.
 */
class KafkaAclsDocTest {
  static final String WRITE_PROPERTY = "headroom.docs.write";
  private static final Path DOC = Path.of("../docs/running-beside-kafka.md");
  private static final String BEGIN = "<!-- BEGIN kafka-acls (generated from KafkaAcls by KafkaAclsDocTest: do not edit) -->";
  private static final String END = "<!-- END kafka-acls -->";

  @Test
  void theDocsAclTableIsKafkaAcls() throws IOException {
    KafkaAcls.Names defaults = KafkaAcls.Names.under(Topics.defaults());
    String generated = KafkaAcls.markdown(defaults) + "\nAs `kafka-acls` commands:\n\n```text\n"
        + KafkaAcls.commands(defaults) + "```\n";
    String doc = Files.readString(DOC);
    int begin = doc.indexOf(BEGIN);
    int end = doc.indexOf(END);
    assertThat(begin).as("%s in %s", BEGIN, DOC).isNotNegative();
    assertThat(end).as("%s after the begin marker", END).isGreaterThan(begin);
    if (Boolean.getBoolean(WRITE_PROPERTY)) {
      doc = doc.substring(0, begin + BEGIN.length()) + "\n" + generated + doc.substring(end);
      Files.writeString(DOC, doc);
      end = doc.indexOf(END);
    }
    assertThat(doc.substring(begin + BEGIN.length() + 1, end))
        .as("docs/running-beside-kafka.md's ACLs differ from KafkaAcls; regenerate with -D%s=true", WRITE_PROPERTY)
        .isEqualTo(generated);
  }

  @Test
  void theNamesFollowThePrefixAndTheIds() {
    KafkaAcls.Names names = new KafkaAcls.Names(new Topics("prod-eu."), "eu-topology", "eu-actuator");
    var topology = KafkaAcls.bindings(KafkaAcls.Identity.TOPOLOGY, "User:t", names, false);
    assertThat(topology).anySatisfy(b -> {
      assertThat(b.pattern().resourceType()).isEqualTo(ResourceType.TRANSACTIONAL_ID);
      assertThat(b.pattern().name()).isEqualTo("eu-topology-");
      assertThat(b.pattern().patternType()).isEqualTo(PatternType.PREFIXED);
    });
    // without --topic-create only Streams' changelogs are created
    assertThat(topology).filteredOn(b -> b.entry().operation() == AclOperation.CREATE)
        .extracting(b -> b.pattern().name()).containsExactly("eu-topology-");
    assertThat(KafkaAcls.bindings(KafkaAcls.Identity.ACTUATOR, "User:a", names, true))
        .anySatisfy(b -> assertThat(b.pattern().name()).isEqualTo("eu-actuator"))
        .anySatisfy(b -> assertThat(b.pattern().name()).isEqualTo("prod-eu.decisions"))
        .allSatisfy(b -> assertThat(b.entry().principal()).isEqualTo("User:a"));
  }
}
