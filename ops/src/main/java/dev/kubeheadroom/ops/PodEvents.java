package dev.kubeheadroom.ops;

import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes {@code events.k8s.io/v1} Events about pods (docs/design/headroom-design.txt §8.1: events are how a tenant sees
 * what Headroom did, in {@code kubectl describe pod}). The one place the Event object is built, so
 * the actuator's and ingest's events look alike; each stage decides what to say and when.
 *
 * <p>A failed write is logged and reported to the caller ({@code false}), never thrown: an event
 * is a courtesy, losing one must not stop a stage.
 */
public final class PodEvents {
  private static final Logger LOG = LoggerFactory.getLogger(PodEvents.class);
  /** The API server refuses longer notes (events.k8s.io/v1 validation). */
  static final int MAX_NOTE = 1024;
  private static final DateTimeFormatter MICRO =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  /**
   * One event about one pod.
   *
   * @param namespace the pod's namespace (the event is written there)
   * @param name the pod's name
   * @param uid the pod's uid (so the event does not attach to a later pod of the same name)
   * @param type {@code Normal} or {@code Warning}
   * @param reason a CamelCase reason, e.g. {@code CPULimitAdjusted}
   * @param action what was done or attempted, e.g. {@code Resize}
   * @param note the human-readable line; cut at {@value #MAX_NOTE} characters
   */
  public record PodEvent(String namespace, String name, String uid, String type, String reason,
      String action, String note) {
    public PodEvent {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(action, "action");
      note = note == null ? "" : note;
    }
  }

  private final KubernetesClient client;
  private final Clock clock;
  private final String controller;
  private final String instance;

  /**
   * @param controller {@code reportingController}, e.g. {@code kube-headroom.dev/actuator}
   * @param instance {@code reportingInstance}, e.g. the process's pod name
   */
  public PodEvents(KubernetesClient client, Clock clock, String controller, String instance) {
    this.client = Objects.requireNonNull(client, "client");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.controller = Objects.requireNonNull(controller, "controller");
    this.instance = Objects.requireNonNull(instance, "instance");
  }

  /** True when the API server stored the event; false (logged) when it did not. */
  public boolean write(PodEvent e) {
    String note = e.note().length() > MAX_NOTE ? e.note().substring(0, MAX_NOTE) : e.note();
    Event event = new EventBuilder()
        .withNewMetadata()
        // client-go's naming: the object's name and a random suffix, never a collision to retry
        .withName(e.name() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()))
        .withNamespace(e.namespace())
        .endMetadata()
        .withRegarding(new ObjectReferenceBuilder().withApiVersion("v1").withKind("Pod")
            .withNamespace(e.namespace()).withName(e.name()).withUid(e.uid()).build())
        .withReason(e.reason())
        .withType(e.type())
        .withNote(note)
        .withAction(e.action())
        .withReportingController(controller)
        .withReportingInstance(instance)
        .withEventTime(new MicroTime(MICRO.format(clock.instant().truncatedTo(ChronoUnit.MICROS))))
        .build();
    try {
      client.events().v1().events().inNamespace(e.namespace()).resource(event).create();
      return true;
    } catch (KubernetesClientException ex) {
      LOG.warn("Pod({}/{}): cannot write event {} ({}): {}", e.namespace(), e.name(), e.reason(),
          ex.getCode(), ex.getStatus() != null ? ex.getStatus().getMessage() : ex.getMessage());
      return false;
    }
  }
}
