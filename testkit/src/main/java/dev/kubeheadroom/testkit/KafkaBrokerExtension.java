package dev.kubeheadroom.testkit;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Resolves {@link KafkaBroker} parameters to the JVM's shared broker of the kind named by the
 * class's {@link WithKafka} (or the default kind when used through {@code @ExtendWith}).
 */
public final class KafkaBrokerExtension implements ParameterResolver {

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == KafkaBroker.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return broker(context);
  }

  /** The shared broker the test class's {@link WithKafka} names (for extensions that need one too). */
  public static KafkaBroker broker(ExtensionContext context) {
    BrokerKind kind =
        context
            .getTestClass()
            .flatMap(type -> AnnotationSupport.findAnnotation(type, WithKafka.class))
            .map(WithKafka::value)
            .orElse(BrokerKind.DEFAULT);
    return TestKafka.shared(kind);
  }
}
