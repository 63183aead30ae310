package dev.kubeheadroom.cli.preflight;

/** Reports whether the config in force patches anything; dry-run is the intended first stage. */
public final class DryRunCheck implements Check {
  static final String NAME = "dry-run";

  @Override
  public Result run(Cluster cluster) {
    if (cluster.config().inForce().dryRun()) {
      return Result.pass(NAME, "dry-run: nothing will be patched until dryRun: false",
          "when the dry-run status annotations look right: "
              + "kubectl patch hcfg cluster --type merge -p '{\"spec\":{\"dryRun\":false}}'");
    }
    return Result.pass(NAME, "enforcing: dryRun is false, limits of managed pods will be patched");
  }
}
