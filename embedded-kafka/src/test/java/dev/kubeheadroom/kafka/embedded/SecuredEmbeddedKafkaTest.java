package dev.kubeheadroom.kafka.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SASL_SSL broker (SCRAM-SHA-512) with the ACL authorizer: a user does what it is granted and
 * nothing else, a wrong password or an untrusted certificate ends the connection.
 */
class SecuredEmbeddedKafkaTest {
  private static final SaslUsers USERS = SaslUsers.of("reader", "writer");
  private static final String TOPIC = "secured";

  @TempDir static Path dir;
  private static EmbeddedKafka kafka;

  @BeforeAll
  static void startSecuredBroker() throws Exception {
    kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dir).withSasl(USERS));
    kafka.createTopics(Map.of(TOPIC, 1), Map.of());
    try (Admin admin = kafka.admin()) {
      admin.createAcls(List.of(
          allow("writer", AclOperation.WRITE), allow("reader", AclOperation.READ),
          allow("reader", AclOperation.DESCRIBE))).all().get(30, TimeUnit.SECONDS);
    }
  }

  @AfterAll
  static void stop() {
    kafka.close();
  }

  @Test
  void aUserDoesWhatItsAclsGrantAndIsRefusedTheRest() {
    try (KafkaProducer<String, String> writer = producer("writer")) {
      writer.send(new ProducerRecord<>(TOPIC, "k", "v")).get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("the writer is granted Write on " + TOPIC, e);
    }
    try (KafkaConsumer<String, String> reader = consumer("reader")) {
      reader.assign(List.of(new TopicPartition(TOPIC, 0)));
      reader.seekToBeginning(reader.assignment());
      ConsumerRecords<String, String> read = reader.poll(Duration.ofSeconds(30));
      assertThat(read.count()).isEqualTo(1);
    }
    // (an idempotent producer with Write on no topic is refused IdempotentWrite on the cluster)
    try (KafkaProducer<String, String> reader = producer("reader")) {
      assertThatThrownBy(() -> reader.send(new ProducerRecord<>(TOPIC, "k", "v")).get(30, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(AuthorizationException.class);
    }
  }

  @Test
  void aWrongPasswordIsRefusedAtLogin() {
    Map<String, Object> config = new HashMap<>(kafka.clientProperties("reader"));
    assertThat(config).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512");
    config.put("sasl.jaas.config",
        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"reader\" password=\"guess\";");
    assertThatThrownBy(() -> listTopics(config)).hasCauseInstanceOf(SaslAuthenticationException.class);
  }

  @Test
  void aClientThatDoesNotTrustTheBrokersCertificateIsRefused() {
    Map<String, Object> config = new HashMap<>(kafka.clientProperties("reader"));
    config.keySet().removeIf(key -> key.startsWith("ssl.truststore."));
    assertThatThrownBy(() -> listTopics(config)).hasCauseInstanceOf(SslAuthenticationException.class);
  }

  private static void listTopics(Map<String, Object> config) throws Exception {
    config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (Admin admin = Admin.create(config)) {
      admin.listTopics().names().get(30, TimeUnit.SECONDS);
    }
  }

  private static AclBinding allow(String user, AclOperation operation) {
    return new AclBinding(new ResourcePattern(ResourceType.TOPIC, TOPIC, PatternType.LITERAL),
        new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW));
  }

  private static KafkaProducer<String, String> producer(String user) {
    Map<String, Object> config = new HashMap<>(kafka.clientProperties(user));
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
    return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
  }

  private static KafkaConsumer<String, String> consumer(String user) {
    Map<String, Object> config = new HashMap<>(kafka.clientProperties(user));
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
  }
}
