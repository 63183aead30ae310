package dev.kubeheadroom.schemas;

import java.util.List;

/**
 * A node's part of a gang: its managed members and their own targets, on the {@code
 * gang-members} topic (key: the gang, {@link GangKey}). Each supersedes the node's previous part;
 * an empty list says the node has no member left.
 */
public record GangMembers(String gang, String node, List<GangMember> members) implements Versioned {
  public GangMembers {
    Require.text(gang, "gang");
    Require.text(node, "node");
    members = Require.list(members);
  }
}
