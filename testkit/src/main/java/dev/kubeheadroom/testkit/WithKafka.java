package dev.kubeheadroom.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives the test class a running broker: any {@link KafkaBroker} parameter of a test method,
 * lifecycle method or constructor receives the JVM's shared broker ({@link TestKafka#shared}).
 *
 * <pre>{@code
 * @WithKafka
 * class PodsTopicTest {
 *   @Test
 *   void roundTrips(KafkaBroker kafka) { String topic = kafka.createTopic("pods", 3); ... }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(KafkaBrokerExtension.class)
public @interface WithKafka {

  /** Which broker; {@link BrokerKind#DEFAULT} follows {@code -Dheadroom.test.kafka}. */
  BrokerKind value() default BrokerKind.DEFAULT;
}
