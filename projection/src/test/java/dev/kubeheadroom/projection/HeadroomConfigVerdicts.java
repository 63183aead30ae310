package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.JsonCodec;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.util.regex.Pattern;

/**
 * The property the HeadroomConfig spec reader holds for any object (docs/reliability.md, "Hostile
 * inputs"): {@link LastGoodConfig#offer} either puts a config in force, which the config topic
 * carries to the actuator and the webhook unchanged (it encodes and decodes to itself), or refuses
 * the object with one line naming the field ({@code spec.pools[1].deadband.grow: ...}); never
 * another exception, and never the record's own backstop (a bare {@code spec:} refusal that is not
 * about the spec's type).
 */
final class HeadroomConfigVerdicts {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern FIELD =
      Pattern.compile("(object|apiVersion|kind|metadata\\.name|spec(\\.[A-Za-z]+|\\[\\d+])*)");

  private HeadroomConfigVerdicts() {}

  /** The object the bytes hold, or null when they are not one (the watch transport refuses those). */
  static GenericKubernetesResource object(byte[] bytes) {
    try {
      return JSON.readValue(bytes, GenericKubernetesResource.class);
    } catch (IOException e) {
      return null;
    }
  }

  /** Asserts the property for one object; returns the verdict. */
  static LastGoodConfig holds(GenericKubernetesResource object, String what) {
    LastGoodConfig verdict = LastGoodConfig.INITIAL.offer(object);
    if (verdict.refused()) {
      String refusal = verdict.refusal();
      assertThat(refusal).as("%s: one line", what).doesNotContain("\n").doesNotContain("\r");
      int colon = refusal.indexOf(": ");
      assertThat(colon).as("%s: names a field: %s", what, refusal).isPositive();
      String field = refusal.substring(0, colon);
      assertThat(FIELD.matcher(field).matches()).as("%s: a field path: %s", what, refusal).isTrue();
      if (field.equals("spec")) {
        assertThat(refusal).as("%s: the record's backstop was reached", what).startsWith("spec: must be an object");
      }
      assertThat(verdict.config()).isEqualTo(ClusterConfig.DEFAULTS);
      return verdict;
    }
    ClusterConfig config = verdict.config();
    assertThat(JsonCodec.decode(JsonCodec.encode(config), ClusterConfig.class))
        .as("%s: the config topic carries it unchanged", what).isEqualTo(config);
    return verdict;
  }
}
