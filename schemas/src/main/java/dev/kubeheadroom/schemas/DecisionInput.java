package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kubeheadroom.policy.PodInput;
import dev.kubeheadroom.policy.Tenant;
import java.util.List;

/**
 * One pod as the policy saw it, in a {@link NodeDecision}'s {@code inputs} (mapped from and to
 * the policy's {@link PodInput}; see {@link DecisionConfig} for why).
 *
 * @param key the pod's uid
 * @param requestMilli its aggregate CPU request
 * @param currentLimitMilli its aggregate CPU limit; 0 = unset
 * @param managed eligible and opted in
 * @param userCapMilli its own cap (max-cpu, LimitRange max); 0 = none
 * @param tenant under hierarchical tenancy, the pod's tenant (its namespace); null otherwise and
 *     then not written
 * @param tenantWeight under hierarchical tenancy, the tenant's weight multiplier; 0 otherwise and
 *     then not written
 * @param gang the pod's gang ({@link GangKey}), or null (then not written: a pod in no gang, and
 *     every record before §11.6, keeps its bytes)
 * @param gangCeiling the ceiling its gang put on it ({@code UniformCeiling}): the lowest ratio of
 *     the gang's members, this node's included; null when none applied (a gang of one)
 */
public record DecisionInput(
    String key, long requestMilli, long currentLimitMilli, boolean managed, long userCapMilli,
    @JsonInclude(JsonInclude.Include.NON_NULL) String tenant,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @com.fasterxml.jackson.annotation.JsonSetter(nulls = com.fasterxml.jackson.annotation.Nulls.AS_EMPTY)
    double tenantWeight,
    @JsonInclude(JsonInclude.Include.NON_NULL) String gang,
    @JsonInclude(JsonInclude.Include.NON_NULL) CeilingRatio gangCeiling) {

  /** As strict as the policy's input, so a record it would refuse is refused when read. */
  public DecisionInput {
    java.util.Objects.requireNonNull(key, "key");
    Require.nonNegative(requestMilli, "requestMilli");
    Require.nonNegative(currentLimitMilli, "currentLimitMilli");
    Require.nonNegative(userCapMilli, "userCapMilli");
    if (tenant != null && !(tenantWeight > 0 && Double.isFinite(tenantWeight))) {
      throw new IllegalArgumentException("tenantWeight must be positive with a tenant, got " + tenantWeight);
    }
  }

  /** An input in no gang. */
  public DecisionInput(String key, long requestMilli, long currentLimitMilli, boolean managed,
      long userCapMilli, String tenant, double tenantWeight) {
    this(key, requestMilli, currentLimitMilli, managed, userCapMilli, tenant, tenantWeight, null, null);
  }

  /** This input as a member of {@code gang} under {@code ceiling} (null: none applied). */
  public DecisionInput inGang(String gangKey, CeilingRatio ceiling) {
    return new DecisionInput(key, requestMilli, currentLimitMilli, managed, userCapMilli, tenant,
        tenantWeight, gangKey, ceiling);
  }

  /** An input without a tenant (flat policy). */
  public DecisionInput(String key, long requestMilli, long currentLimitMilli, boolean managed,
      long userCapMilli) {
    this(key, requestMilli, currentLimitMilli, managed, userCapMilli, null, 0);
  }

  /** An input of a pod of {@code tenant}. */
  public static DecisionInput of(PodInput pod, Tenant tenant) {
    return new DecisionInput(pod.key(), pod.requestMilli(), pod.currentLimitMilli(), pod.managed(),
        pod.userCapMilli(), tenant.name(), tenant.weightMultiplier());
  }

  /** Its tenant, for the hierarchical policy (null when the decision was flat). */
  public Tenant toTenant() {
    return tenant == null ? null : new Tenant(tenant, tenantWeight);
  }

  /** Every input's tenant, or null when any has none (a flat decision). */
  public static java.util.List<Tenant> toTenants(List<DecisionInput> inputs) {
    List<Tenant> tenants = new java.util.ArrayList<>(inputs.size());
    for (DecisionInput in : inputs) {
      if (in.tenant == null) {
        return null;
      }
      tenants.add(in.toTenant());
    }
    return tenants;
  }

  public static DecisionInput of(PodInput pod) {
    return new DecisionInput(pod.key(), pod.requestMilli(), pod.currentLimitMilli(), pod.managed(),
        pod.userCapMilli());
  }

  public static List<DecisionInput> of(List<PodInput> pods) {
    return pods.stream().map(DecisionInput::of).toList();
  }

  /** The policy's input (validated there: a negative quantity throws IllegalArgumentException). */
  public PodInput toPolicy() {
    return new PodInput(key, requestMilli, currentLimitMilli, managed, userCapMilli);
  }

  public static List<PodInput> toPolicy(List<DecisionInput> inputs) {
    return inputs.stream().map(DecisionInput::toPolicy).toList();
  }
}
