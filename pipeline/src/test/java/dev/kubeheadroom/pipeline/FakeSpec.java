package dev.kubeheadroom.pipeline;

import io.micrometer.core.instrument.Gauge;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/** A stage spec for tests: each start is an instance that is ready until told to fail. */
final class FakeSpec implements StageSpec {
  private final String name;
  final List<String> log;
  final List<AtomicBoolean> failed = new ArrayList<>();
  RuntimeException failNextStart;

  FakeSpec(String name, List<String> log) {
    this.name = name;
    this.log = log;
  }

  /** The latest instance fails. */
  void fail() {
    failed.get(failed.size() - 1).set(true);
  }

  int starts() {
    return failed.size();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Stage start(StageContext context) {
    if (failNextStart != null) {
      RuntimeException e = failNextStart;
      failNextStart = null;
      throw e;
    }
    AtomicBoolean mine = new AtomicBoolean();
    failed.add(mine);
    int instance = failed.size();
    // a gauge of this instance, as ingest's leader gauge is
    Gauge.builder("headroom." + name + ".instance", () -> instance).register(context.registry());
    log.add("start " + name);
    return new Stage() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public boolean ready() {
        return !mine.get();
      }

      @Override
      public Optional<Throwable> failure() {
        return mine.get() ? Optional.of(new IllegalStateException(name + " broke")) : Optional.empty();
      }

      @Override
      public void close() {
        log.add("close " + name);
      }
    };
  }
}
