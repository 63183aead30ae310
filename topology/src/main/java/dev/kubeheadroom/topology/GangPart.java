package dev.kubeheadroom.topology;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kubeheadroom.schemas.CeilingRatio;
import dev.kubeheadroom.schemas.GangMember;
import java.util.List;

/**
 * One node's part of a gang, in the {@code headroom-gangs} store (key: {@link GangProcessor#key}):
 * the node's members and their own targets, and the ceiling last sent to the node (null: none).
 */
public record GangPart(List<GangMember> members,
    @JsonInclude(JsonInclude.Include.NON_NULL) CeilingRatio sent) {
  public GangPart {
    members = members == null ? List.of() : List.copyOf(members);
  }
}
