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
 */
public record LiveBooking(String uid, NodeBooking booking, ClusterConfig config, Map<String, NamespaceInfo> namespaces) {
  public LiveBooking {
    namespaces = namespaces == null ? Map.of() : new TreeMap<>(namespaces);
  }
}
