package dev.kubeheadroom.cli.preflight;

/** {@code HeadroomConfig/cluster} exists and the reader accepts it (docs/design/config.md). */
public final class HeadroomConfigCheck implements Check {
  static final String NAME = "headroom-config";

  @Override
  public Result run(Cluster cluster) {
    // Java 17: no pattern switch; ConfigState is sealed, so these four are all there is.
    ConfigState state = cluster.config();
    if (state instanceof ConfigState.Valid valid) {
      return Result.pass(NAME, "HeadroomConfig/cluster is valid (generation " + valid.config().generation() + ")");
    }
    if (state instanceof ConfigState.Refused refused) {
      return Result.fail(NAME, "HeadroomConfig/cluster is refused: " + refused.reason()
              + "; the last good config, or the defaults (dryRun: true), stays in force",
          "correct " + refused.field() + " (kubectl edit hcfg cluster)");
    }
    if (state instanceof ConfigState.Unreadable unreadable) {
      return Result.warn(NAME, "cannot read HeadroomConfig/cluster (" + unreadable.reason()
              + "); the other checks assume the defaults",
          "run preflight with get on headroomconfigs.kube-headroom.dev");
    }
    return Result.warn(NAME, "no HeadroomConfig/cluster: Headroom runs with the built-in defaults (dryRun: true)",
        "kubectl apply -k config/samples (or helm upgrade kube-headroom --set headroomConfig.create=true); "
            + "install the kube-headroom-crds chart first if the CRD is missing");
  }
}
