package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.nio.file.Path;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A simulated Kubernetes API server on 127.0.0.1 and an ephemeral port: fabric8's CRUD mock
 * server extended with the resize subresource, server-side apply on pods, field selectors, the
 * mutating-admission chain on pod creation ({@link #routeService}, {@link #admissionCalls}), fault
 * injection and a request journal (see {@code DESIGN.md} for where it differs from a real one).
 *
 * <pre>{@code
 * try (ApiServerDouble api = ApiServerDouble.start();
 *      KubeletDouble kubelet = KubeletDouble.start(api)) {
 *   KubernetesClient client = api.client();
 *   api.faults().next(1, RequestMatcher.resize(), Fault.forbiddenByQuota(...));
 *   ...
 *   assertThat(api.requests().count(RequestMatcher.resize())).isZero();
 * }
 * }</pre>
 *
 * <p>Serves plain HTTP (no TLS). Watches are served over WebSocket, as the fabric8 client asks
 * for them.
 *
 * <p>Authentication and authorization, as kube-apiserver enforces them:
 * <ul>
 *   <li>every request needs {@code Authorization: Bearer <token>}, watches (WebSocket upgrades)
 *       included; none or an unknown token → 401 {@code Unauthorized};</li>
 *   <li>{@link #client()}, {@link #newClient()}, {@link #config()} and {@link #seedClient()} act as
 *       a test-only admin in {@code system:masters}, whom RBAC never denies;</li>
 *   <li>{@link #clientAs}, {@link #configAs} and {@link #writeKubeconfig} act as a ServiceAccount
 *       ({@code system:serviceaccount:NS:SA}), authorized by the Roles, ClusterRoles, RoleBindings
 *       and ClusterRoleBindings stored in the double (create them through the admin client): verb,
 *       API group, resource/subresource ({@code pods/resize}), resourceName; a denial is 403
 *       {@code Forbidden} worded as kube-apiserver words it. Discovery ({@code /version},
 *       {@code /api}, {@code /apis}, {@code /openapi}, {@code /healthz}) and self subject reviews
 *       are open to every authenticated user;</li>
 *   <li>the journal ({@link #requests()}) records the caller and the authorization attributes of
 *       every request, refused ones included;</li>
 *   <li>a programmed 429 is plain text with {@code Retry-After}, as priority and fairness sends it.</li>
 * </ul>
 * Another process reaches it as a ServiceAccount with {@code KUBECONFIG} / {@code --kubeconfig}
 * set to a file from {@link #writeKubeconfig}; a URL alone ({@code --master-url}) gets 401.
 */
public final class ApiServerDouble implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ApiServerDouble.class);

  /**
   * {@code kube-headroom.dev/v1alpha1 HeadroomConfig}, cluster-scoped, with the {@code status}
   * subresource its CRD declares: writes to the object keep the status, writes to
   * {@code /status} change only the status (and not the generation).
   */
  public static final CustomResourceDefinitionContext HEADROOM_CONFIG =
      new CustomResourceDefinitionContext.Builder().withGroup("kube-headroom.dev").withVersion("v1alpha1")
          .withKind("HeadroomConfig").withPlural("headroomconfigs").withScope("Cluster")
          .withStatusSubresource(true).build();

  /** {@code autoscaling.k8s.io/v1 VerticalPodAutoscaler}, namespaced. */
  public static final CustomResourceDefinitionContext VERTICAL_POD_AUTOSCALER =
      new CustomResourceDefinitionContext.Builder().withGroup("autoscaling.k8s.io").withVersion("v1")
          .withKind("VerticalPodAutoscaler").withPlural("verticalpodautoscalers").withScope("Namespaced")
          .build();

  /** Held so that the level sticks: the mock web server logs every request at INFO through JUL. */
  private static final java.util.logging.Logger MOCK_WEB_SERVER_LOG =
      java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

  static {
    MOCK_WEB_SERVER_LOG.setLevel(java.util.logging.Level.WARNING);
  }

  private final KubernetesMockServer server;
  private final ApiServerDispatcher dispatcher;
  private final RequestJournal journal;
  private final KubernetesClient client;
  private final KubernetesClient seedClient;
  private volatile ServerVersion version = ServerVersion.DEFAULT;
  private final List<KubernetesClient> extraClients = new CopyOnWriteArrayList<>();
  private final Duration startupTime;

  private ApiServerDouble(Clock clock) {
    long started = System.nanoTime();
    journal = new RequestJournal(clock);
    dispatcher = new ApiServerDispatcher(List.of(HEADROOM_CONFIG, VERTICAL_POD_AUTOSCALER), journal);
    server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(),
        new HashMap<>(), dispatcher, false);
    server.init(InetAddress.getLoopbackAddress(), 0);
    client = newClient();
    seedClient = new KubernetesClientBuilder().withConfig(new ConfigBuilder(config())
        .withCustomHeaders(Map.of(ApiServerDispatcher.SEED_HEADER, "true")).build()).build();
    startupTime = Duration.ofNanos(System.nanoTime() - started);
    LOG.info("kube-double API server listening on {} (started in {} ms)", url(), startupTime.toMillis());
  }

  /** Starts a fresh, empty API server; the journal stamps requests with the system clock. */
  public static ApiServerDouble start() {
    return new ApiServerDouble(Clock.systemUTC());
  }

  /** Starts a fresh, empty API server whose journal stamps requests with {@code clock}. */
  public static ApiServerDouble start(Clock clock) {
    return new ApiServerDouble(clock);
  }

  /** The base URL, e.g. {@code http://127.0.0.1:40321/}. */
  public String url() {
    return "http://127.0.0.1:" + server.getPort() + "/";
  }

  /** A shared client for this server (closed with it); namespace defaults to {@code default}. */
  public KubernetesClient client() {
    return client;
  }

  /**
   * A new client for this server (closed with it), e.g. one per component under test. Like
   * {@link #client()} it acts as the test-only administrator ({@code system:masters}), whom RBAC
   * never denies.
   */
  public KubernetesClient newClient() {
    return track(new KubernetesClientBuilder().withConfig(config()).build());
  }

  /**
   * The administrator's client configuration: master URL, no TLS, the admin's bearer token,
   * namespace {@code default}, fabric8's request retries off.
   */
  public Config config() {
    return config("default", dispatcher.authenticator().adminToken());
  }

  /**
   * The bearer token of ServiceAccount {@code namespace/serviceAccount} (the same on every call):
   * it authenticates as {@code system:serviceaccount:NS:SA} in the groups
   * {@code system:serviceaccounts}, {@code system:serviceaccounts:NS} and
   * {@code system:authenticated}, and is authorized by the RBAC objects stored in the double.
   */
  public String serviceAccountToken(String namespace, String serviceAccount) {
    return dispatcher.authenticator().serviceAccountToken(namespace, serviceAccount);
  }

  /**
   * A client acting as ServiceAccount {@code namespace/serviceAccount} (closed with the double);
   * its default namespace is {@code namespace}, fabric8's request retries are off.
   */
  public KubernetesClient clientAs(String namespace, String serviceAccount) {
    return track(new KubernetesClientBuilder().withConfig(configAs(namespace, serviceAccount)).build());
  }

  /** The configuration behind {@link #clientAs}: master URL, the ServiceAccount's token, its namespace. */
  public Config configAs(String namespace, String serviceAccount) {
    return config(namespace, serviceAccountToken(namespace, serviceAccount));
  }

  /**
   * Writes a kubeconfig (server {@link #url()}, the ServiceAccount's token, default namespace
   * {@code namespace}) that {@code Config.autoConfigure} ({@code KUBECONFIG=file}) and
   * {@code Config.fromKubeconfig} read, so a separate process acts as that ServiceAccount. It
   * carries no retry settings: such a client has fabric8's defaults.
   */
  public void writeKubeconfig(String namespace, String serviceAccount, Path file) {
    String user = UserInfo.serviceAccount(namespace, serviceAccount).name();
    Kubeconfig.write(file, Kubeconfig.render(url(), user, serviceAccountToken(namespace, serviceAccount), namespace));
  }

  /**
   * Writes a kubeconfig acting as the test-only admin ({@code system:masters}, never denied),
   * default namespace {@code default}: for a separate process whose test is not about its grants.
   */
  public void writeAdminKubeconfig(Path file) {
    Kubeconfig.write(file, Kubeconfig.render(url(), UserInfo.admin().name(), dispatcher.authenticator().adminToken(),
        "default"));
  }

  private Config config(String namespace, String token) {
    return new ConfigBuilder(Config.empty()).withMasterUrl(url()).withNamespace(namespace)
        .withOauthToken(token).withTrustCerts(true).withHttp2Disable(true)
        .withRequestRetryBackoffLimit(0).build();
  }

  private KubernetesClient track(KubernetesClient fresh) {
    extraClients.add(fresh);
    return fresh;
  }

  /**
   * A client for putting state in place (a test's given, a demo scenario): its requests are
   * neither faulted nor recorded, and pods it creates keep the {@code status} they carry (a real
   * API server resets it; {@code status.qosClass} is still filled in if absent).
   */
  public KubernetesClient seedClient() {
    return seedClient;
  }

  /** Programmed answers for the next or every matching request. */
  public FaultInjector faults() {
    return dispatcher.faults();
  }

  /** What {@code GET /version} answers from now on (default {@link ServerVersion#DEFAULT}). */
  public void version(ServerVersion version) {
    dispatcher.version(version);
    this.version = version;
  }

  /** What {@code GET /version} answers (also the release {@link KubeletDouble} behaves as). */
  public ServerVersion version() {
    return version;
  }

  /** The requests answered so far, for counting. */
  public RequestJournal requests() {
    return journal;
  }

  /**
   * Routes a Service port to a local address: the double's stand-in for the Service's endpoints,
   * so a MutatingWebhookConfiguration whose {@code clientConfig.service} is
   * {@code {namespace, name, port}} reaches a webhook a test started on {@code target}. The
   * server certificate is still verified for {@code NAME.NAMESPACE.svc}, as the API server does.
   */
  public void routeService(String namespace, String name, int port, InetSocketAddress target) {
    dispatcher.admission().routes().route(namespace, name, port, target);
  }

  /** Removes a route: calls to that Service port fail as if it had no endpoints. */
  public void unrouteService(String namespace, String name, int port) {
    dispatcher.admission().routes().remove(namespace, name, port);
  }

  /** Every call the mutating-admission chain made to a webhook so far, in order. */
  public List<AdmissionCall> admissionCalls() {
    return dispatcher.admission().calls();
  }

  /** Forgets the admission calls recorded so far. */
  public void clearAdmissionCalls() {
    dispatcher.admission().clearCalls();
  }

  /** The stored pod, read without a request. */
  public Optional<Pod> pod(String namespace, String name) {
    return dispatcher.pod(namespace, name).map(ApiServerDouble::toPod);
  }

  /** Every stored pod, read without a request. */
  public List<Pod> pods() {
    return dispatcher.pods().stream().map(ApiServerDouble::toPod).toList();
  }

  // ---- watches and history (see DESIGN.md "Watches and lists") --------------------------------

  /**
   * Forgets the watch history so far, as an etcd compaction does: a watch resuming from an older
   * resourceVersion gets an ERROR 410 Expired event (informers then relist), and a LIST
   * {@code continue} token from before now gets 410.
   */
  public void compactHistory() {
    Watches watches = dispatcher.watches();
    watches.compact(watches.revision());
  }

  /** How many writes the watch history keeps (default {@value Watches#DEFAULT_HISTORY}). */
  public void watchHistoryLimit(int writes) {
    dispatcher.watches().historyLimit(writes);
  }

  /**
   * The longest a watch opened from now on stays open (default 5 minutes); a watch's own
   * {@code timeoutSeconds} ends it sooner. The server closes it cleanly and clients reconnect.
   */
  public void watchTimeout(Duration timeout) {
    dispatcher.watches().timeout(timeout);
  }

  /** How often watches that allow bookmarks get a BOOKMARK event (default 1 s). */
  public void bookmarkInterval(Duration interval) {
    dispatcher.watches().bookmarkInterval(interval);
  }

  /** Ends every open watch now, as a dropped connection would; clients reconnect. */
  public void dropWatches() {
    dispatcher.watches().dropAll();
  }

  /** How many watches are open. */
  public int openWatches() {
    return dispatcher.watches().open();
  }

  /** The store's current revision: the resourceVersion of the latest write. */
  public long revision() {
    return dispatcher.watches().revision();
  }

  /** How long {@link #start()} took, server and first client included. */
  public Duration startupTime() {
    return startupTime;
  }

  ApiServerDispatcher dispatcher() {
    return dispatcher;
  }

  private static Pod toPod(ObjectNode json) {
    return Serialization.jsonMapper().convertValue(json, Pod.class);
  }

  @Override
  public void close() {
    extraClients.forEach(KubernetesClient::close);
    seedClient.close();
    dispatcher.watches().close();
    server.destroy();
  }
}
