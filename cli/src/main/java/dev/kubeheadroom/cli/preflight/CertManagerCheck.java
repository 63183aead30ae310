package dev.kubeheadroom.cli.preflight;

/**
 * cert-manager issues the admission webhook's serving certificate (runbook "Install"). Without the
 * webhook, short-lived pods keep their birth limits (docs/design/headroom-design.txt §6.5), so its absence only matters
 * while {@code spec.webhook.enabled} is true.
 */
public final class CertManagerCheck implements Check {
  static final String NAME = "cert-manager";

  @Override
  public Result run(Cluster cluster) {
    if (!cluster.certManagerCrd().readable()) {
      return Result.warn(NAME, cluster.certManagerCrd().unreadable() + ": cert-manager presence unknown",
          "kubectl get crd " + ClusterReader.CERT_MANAGER_CRD + " (or run preflight with get on "
              + "customresourcedefinitions)");
    }
    if (!cluster.certManagerCrd().items().isEmpty()) {
      return Result.pass(NAME, "cert-manager is installed (CRD " + ClusterReader.CERT_MANAGER_CRD + ")");
    }
    if (cluster.config().inForce().webhook().enabled()) {
      return Result.warn(NAME, "cert-manager is not installed (no CRD " + ClusterReader.CERT_MANAGER_CRD
              + "); the Helm chart needs it for the webhook's serving certificate, and without the webhook "
              + "short-lived pods keep their birth limits",
          "helm repo add jetstack https://charts.jetstack.io && helm install cert-manager "
              + "jetstack/cert-manager -n cert-manager --create-namespace --set crds.enabled=true; or set spec.webhook.enabled: false and install "
              + "the chart with --set webhook.enabled=false --set certmanager.enabled=false");
    }
    return Result.pass(NAME, "cert-manager is not installed; not needed while spec.webhook.enabled is false "
            + "(short-lived pods keep their birth limits)",
        "install the chart with --set webhook.enabled=false --set certmanager.enabled=false");
  }
}
