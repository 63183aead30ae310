package dev.kubeheadroom.schemas;

import dev.kubeheadroom.policy.GangRatio;

/**
 * One managed member of a gang as its node sees it: its request and the target its own node
 * would give it (before the gang's ceiling).
 */
public record GangMember(String uid, long requestMilli, long targetMilli) {
  public GangMember {
    Require.text(uid, "uid");
    new GangRatio(targetMilli, requestMilli); // 0 < request ≤ target, or refused when read
  }

  public GangRatio ratio() {
    return new GangRatio(targetMilli, requestMilli);
  }
}
