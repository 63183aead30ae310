package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;

/**
 * Brackets a node's pods in an ingest re-publish (a new leadership's initial sync, or one after
 * Kafka lost records), on the {@code pods} topic in the node's partition: {@code begin} before the
 * node's first pod, {@code end} after its last. Between the two the node's booking is being filled
 * and may be partial; the topology decides the node only once the {@code end} is read (or a
 * bound later: topology DESIGN.md, "Initial sync"). A pure marker: it changes no booking.
 *
 * <p>Added to schema version 1; a topology older than it fails these records as unreadable
 * (dead-lettered, nothing else changes), so roll the topology out before, or with, ingest.
 *
 * @param epoch see {@link NodeEvent#epoch}
 */
public record SyncMark(
    String node,
    Phase phase,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) @JsonSetter(nulls = Nulls.AS_EMPTY) long epoch)
    implements NodeEvent {
  /** Which end of the node's pods the mark stands at. */
  public enum Phase {
    @JsonProperty("begin") BEGIN,
    @JsonProperty("end") END
  }

  public SyncMark {
    Require.text(node, "node");
    if (phase == null) {
      throw new IllegalArgumentException("sync mark needs a phase (begin or end)");
    }
    Require.nonNegative(epoch, "epoch");
  }

  public SyncMark(String node, Phase phase) {
    this(node, phase, 0);
  }

  @Override
  public SyncMark withEpoch(long value) {
    return new SyncMark(node, phase, value);
  }
}
