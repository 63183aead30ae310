package dev.kubeheadroom.testkit;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * One broker of each kind per JVM, started on first use, shared by every test class and closed when
 * the JVM exits. Use it directly ({@code TestKafka.shared()}) or through {@link WithKafka}.
 *
 * <p>{@code -Dheadroom.test.kafka=embedded} (default) or {@code =container} chooses what {@link
 * #shared()} returns. A broker that failed to start is not retried: every later caller gets the
 * same error at once instead of waiting again.
 */
public final class TestKafka {

  /** System property choosing the default broker: {@code embedded} or {@code container}. */
  public static final String KIND_PROPERTY = "headroom.test.kafka";

  private static final Map<BrokerKind, Object> BROKERS = new EnumMap<>(BrokerKind.class);
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static final AtomicInteger STARTS = new AtomicInteger();

  private TestKafka() {}

  /** The broker chosen by {@value #KIND_PROPERTY}. */
  public static KafkaBroker shared() {
    return shared(BrokerKind.DEFAULT);
  }

  /**
   * The shared broker of the given kind. For {@link BrokerKind#CONTAINER} without Docker this
   * aborts the current test (JUnit assumption), so the test is skipped.
   */
  public static KafkaBroker shared(BrokerKind kind) {
    BrokerKind resolved = resolve(kind);
    return switch (resolved) {
      case EMBEDDED -> get(resolved, EmbeddedKafkaBroker::start);
      case CONTAINER -> get(resolved, ContainerKafkaBroker::start);
      case DEFAULT -> throw new IllegalStateException("unreachable: DEFAULT is resolved above");
    };
  }

  /** {@code base} plus a suffix unique in this JVM: for topics, group ids, transactional ids. */
  public static String uniqueName(String base) {
    return base + "-" + NAMES.incrementAndGet();
  }

  /** How many brokers this JVM has started so far (tests of the sharing itself). */
  static int startsSoFar() {
    return STARTS.get();
  }

  static BrokerKind resolve(BrokerKind kind) {
    if (kind != BrokerKind.DEFAULT) {
      return kind;
    }
    String value = System.getProperty(KIND_PROPERTY, "embedded").trim().toLowerCase(Locale.ROOT);
    return switch (value) {
      case "embedded", "" -> BrokerKind.EMBEDDED;
      case "container", "testcontainers" -> BrokerKind.CONTAINER;
      default -> throw new IllegalArgumentException(
          "-D" + KIND_PROPERTY + " must be embedded or container, got " + value);
    };
  }

  private static synchronized KafkaBroker get(
      BrokerKind kind, Supplier<? extends KafkaBroker> starter) {
    Object existing = BROKERS.get(kind);
    if (existing instanceof KafkaBroker broker) {
      return broker;
    }
    if (existing instanceof RuntimeException failure) {
      throw new IllegalStateException("the shared " + kind + " broker failed to start earlier", failure);
    }
    KafkaBroker broker;
    try {
      broker = starter.get();
    } catch (org.opentest4j.TestAbortedException e) {
      throw e; // no Docker: skip this test, and let later ones check again (cheap)
    } catch (RuntimeException e) {
      BROKERS.put(kind, e);
      throw e;
    }
    STARTS.incrementAndGet();
    BROKERS.put(kind, broker);
    if (broker instanceof AutoCloseable closeable) {
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(() -> closeQuietly(closeable), "headroom-test-kafka-" + kind + "-stop"));
    }
    return broker;
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // the JVM is exiting; a broker that does not stop cleanly changes nothing
    }
  }
}
