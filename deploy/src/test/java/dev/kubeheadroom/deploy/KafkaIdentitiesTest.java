package dev.kubeheadroom.deploy;

import static dev.kubeheadroom.deploy.Charts.Rendered.flag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.deploy.Charts.Rendered;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Kafka identities of a release (the Streams application id, the actuator's consumer group)
 * follow the topic prefix unless set, so two releases on one Kafka never share a consumer group,
 * changelog topics or transactional ids.
 */
class KafkaIdentitiesTest {

  @Test
  void defaultsDeriveFromTheTopicPrefix() {
    Rendered rendered = Charts.operator();

    assertThat(flag(rendered.deployment("topology"), "--application-id")).contains("headroom.topology");
    assertThat(flag(rendered.deployment("actuator"), "--actuator-group-id")).contains("headroom.actuator");
    // each flag only where its stage runs
    assertThat(flag(rendered.deployment("actuator"), "--application-id")).isEmpty();
    assertThat(flag(rendered.deployment("topology"), "--actuator-group-id")).isEmpty();
    for (String stage : new String[] {"ingest", "webhook"}) {
      assertThat(flag(rendered.deployment(stage), "--application-id")).as(stage).isEmpty();
      assertThat(flag(rendered.deployment(stage), "--actuator-group-id")).as(stage).isEmpty();
    }
  }

  @Test
  void allInOnePassesBoth() {
    Rendered rendered = Charts.operatorSet(Map.of("kafka.topicPrefix", "eu."), "all-in-one.yaml");

    assertThat(flag(rendered.deployment("all-in-one"), "--application-id")).contains("eu.topology");
    assertThat(flag(rendered.deployment("all-in-one"), "--actuator-group-id")).contains("eu.actuator");
  }

  @Test
  void twoReleasesWithDifferentPrefixesShareNothing() {
    Rendered eu = Charts.operatorSet(Map.of("kafka.topicPrefix", "eu.headroom."));
    Rendered us = Charts.operatorSet(Map.of("kafka.topicPrefix", "us.headroom."));

    assertThat(flag(eu.deployment("topology"), "--application-id"))
        .isPresent().isNotEqualTo(flag(us.deployment("topology"), "--application-id"));
    assertThat(flag(eu.deployment("actuator"), "--actuator-group-id"))
        .isPresent().isNotEqualTo(flag(us.deployment("actuator"), "--actuator-group-id"));
    assertThat(flag(eu.deployment("topology"), "--topic-prefix")).contains("eu.headroom.");
  }

  @Test
  void explicitValuesWin() {
    Rendered rendered = Charts.operatorSet(Map.of(
        "topology.applicationId", "legacy-headroom-topology", "actuator.groupId", "legacy-headroom-actuator"));

    assertThat(flag(rendered.deployment("topology"), "--application-id")).contains("legacy-headroom-topology");
    assertThat(flag(rendered.deployment("actuator"), "--actuator-group-id")).contains("legacy-headroom-actuator");
  }

  @Test
  void anIdKafkaWouldRefuseFailsTheRender() {
    // values.schema.json now refuses these before the templates' own check runs; both name the value.
    assertThatThrownBy(() -> Charts.operatorSet(Map.of("actuator.groupId", "my group")))
        .hasMessageContaining("actuator.groupId").hasMessageContaining("pattern");
    assertThatThrownBy(() -> Charts.operatorSet(Map.of("kafka.topicPrefix", "a/b.")))
        .hasMessageContaining("kafka.topicPrefix").hasMessageContaining("pattern");
  }
}
