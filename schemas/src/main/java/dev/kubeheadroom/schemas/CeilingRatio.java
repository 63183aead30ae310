package dev.kubeheadroom.schemas;

import dev.kubeheadroom.policy.GangRatio;

/**
 * A gang ceiling on the wire: the policy's {@link GangRatio} (own target over request, as two
 * integers), mapped at the boundary like {@link DecisionConfig}.
 */
public record CeilingRatio(long targetMilli, long requestMilli) {
  /** As strict as the policy's ratio, so a record it would refuse is refused when read. */
  public CeilingRatio {
    toPolicy(targetMilli, requestMilli);
  }

  public static CeilingRatio of(GangRatio ratio) {
    return ratio == null ? null : new CeilingRatio(ratio.targetMilli(), ratio.requestMilli());
  }

  public GangRatio toPolicy() {
    return toPolicy(targetMilli, requestMilli);
  }

  private static GangRatio toPolicy(long target, long request) {
    return new GangRatio(target, request);
  }
}
