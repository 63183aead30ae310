package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.topology.booking.NodeBooking;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the running topology answers for one pod ({@code GET /bookings}): its node's booking as
 * held now (pending targets included), and the config and namespaces that node is decided with.
 *
 * @param uid the pod's uid in {@code booking}
 * @param servedBy the {@code host:port} of the instance that read its stores, or empty when that
 *     instance advertises none
 * @param standbyLag null when read from the node's active task; when read from a standby copy
 *     (the active instance did not answer), how many changelog records that copy was behind
 */
public record LiveBooking(String uid, NodeBooking booking, ClusterConfig config, Map<String, NamespaceInfo> namespaces,
    String servedBy, Long standbyLag) {
  public LiveBooking {
    namespaces = namespaces == null ? Map.of() : new TreeMap<>(namespaces);
    servedBy = servedBy == null ? "" : servedBy;
  }

  /** Read from the active task. */
  public LiveBooking(String uid, NodeBooking booking, ClusterConfig config, Map<String, NamespaceInfo> namespaces) {
    this(uid, booking, config, namespaces, "", null);
  }
}
