package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.OutcomeResult;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code events.k8s.io/v1} Events on the pod (design §8.1): {@code CPULimitAdjusted} (Normal) for
 * an applied or dry-run change, {@code ResizeForbidden} (Warning) for quota-denied,
 * {@code ResizeInfeasible} (Warning) for infeasible. Other results write no event. A failed write
 * is logged and reported to the caller, never fatal.
 */
final class EventRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  static final String REPORTING_CONTROLLER = "kube-headroom.dev/actuator";
  static final String ACTION = "Resize";
  static final String ADJUSTED = "CPULimitAdjusted";
  static final String FORBIDDEN = "ResizeForbidden";
  static final String INFEASIBLE = "ResizeInfeasible";
  private static final int MAX_NOTE = 1024;
  private static final DateTimeFormatter MICRO =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(java.time.ZoneOffset.UTC);

  private final KubernetesClient client;
  private final Clock clock;
  private final String instance;

  EventRecorder(KubernetesClient client, Clock clock, String instance) {
    this.client = Objects.requireNonNull(client, "client");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.instance = Objects.requireNonNull(instance, "instance");
  }

  /** What to write for one outcome: reason, type and note; empty when the result has no event. */
  record Content(String reason, String type, String note) {}

  static Optional<Content> content(PodWork work, OutcomeResult result, String message) {
    String change = fromTo(work);
    String context = String.format(Locale.ROOT, "(node factor %.2f, slack %s/%s cores)",
        work.stats().factor(), Cpu.cores(work.stats().slackMilli()),
        Cpu.cores(work.stats().allocatableMilli()));
    return switch (result) {
      case APPLIED -> Optional.of(new Content(ADJUSTED, "Normal", change + " " + context));
      case DRY_RUN -> Optional.of(new Content(ADJUSTED, "Normal", "(dry-run) would adjust " + change + " " + context));
      case QUOTA_DENIED -> Optional.of(new Content(FORBIDDEN, "Warning",
          "resize " + change + " forbidden: " + message));
      case INFEASIBLE -> Optional.of(new Content(INFEASIBLE, "Warning",
          "resize " + change + " infeasible: " + message));
      case DEFERRED, CONFLICT, GONE, ERROR -> Optional.empty();
    };
  }

  /** {@code 1500m → 3000m}; a pod without a limit before shows {@code none}. */
  static String fromTo(PodWork work) {
    long from = work.change().fromMilli();
    return (from == 0 ? "none" : Cpu.milli(from)) + " → " + Cpu.milli(work.change().targetMilli());
  }

  /** True when an event was written or none was due; false when the write failed. */
  boolean record(PodWork work, OutcomeResult result, String message) {
    Optional<Content> content = content(work, result, message);
    if (content.isEmpty()) {
      return true;
    }
    Content c = content.get();
    String note = c.note().length() > MAX_NOTE ? c.note().substring(0, MAX_NOTE) : c.note();
    Event event = new EventBuilder()
        .withNewMetadata()
        .withName(work.change().name() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()))
        .withNamespace(work.change().namespace())
        .endMetadata()
        .withRegarding(new ObjectReferenceBuilder().withApiVersion("v1").withKind("Pod")
            .withNamespace(work.change().namespace()).withName(work.change().name())
            .withUid(work.uid()).build())
        .withReason(c.reason())
        .withType(c.type())
        .withNote(note)
        .withAction(ACTION)
        .withReportingController(REPORTING_CONTROLLER)
        .withReportingInstance(instance)
        .withEventTime(new MicroTime(MICRO.format(clock.instant().truncatedTo(ChronoUnit.MICROS))))
        .build();
    try {
      client.events().v1().events().inNamespace(work.change().namespace()).resource(event).create();
      return true;
    } catch (KubernetesClientException e) {
      LOG.warn("{}: cannot write event {} ({}): {}", work.describe(), c.reason(), e.getCode(),
          e.getStatus() != null ? e.getStatus().getMessage() : e.getMessage());
      return false;
    }
  }
}
