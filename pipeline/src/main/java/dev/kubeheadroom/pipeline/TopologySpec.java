package dev.kubeheadroom.pipeline;

import dev.kubeheadroom.ops.MeterBinders;
import dev.kubeheadroom.topology.LiveBookings;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import java.util.List;
import java.util.Objects;

/**
 * The topology stage (Kafka Streams). Its reports go to Headroom's metrics and, when given, to
 * {@code listener} too (the demo counts decisions). A restart keeps the application id and state
 * directory, so state restores locally or from the changelogs.
 */
public record TopologySpec(TopologyRunner.Options options, TopologySettings settings,
    TopologyListener listener) implements StageSpec {
  public static final String NAME = "topology";

  public TopologySpec {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(settings, "settings");
    listener = listener == null ? TopologyListener.NONE : listener;
  }

  public TopologySpec(TopologyRunner.Options options, TopologySettings settings) {
    this(options, settings, TopologyListener.NONE);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Stage start(StageContext context) {
    TopologyListener reports = listener == TopologyListener.NONE ? new MetricsListener(context.metrics())
        : new BothListeners(new MetricsListener(context.metrics()), listener);
    TopologyRunner runner = TopologyRunner.start(options, settings, reports);
    AutoCloseable meters = MeterBinders.bindKafkaStreams(context.registry(), runner.streams());
    // explain --live: the stores through interactive queries, on the metrics server's port;
    // any instance answers for any pod, asking the one that owns it (BookingEndpoint)
    context.routes().route(BookingEndpoint.PATH, new BookingEndpoint(
        new LiveBookings(runner.streams(), options.applicationServer())));
    return new RunningStage(NAME, runner::isRunning, runner::failure, List.of(runner, meters));
  }
}
