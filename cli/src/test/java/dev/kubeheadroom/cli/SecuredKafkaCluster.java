package dev.kubeheadroom.cli;

import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.kafka.embedded.SaslUsers;
import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubedouble.KubeletDouble;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.KafkaAcls;
import dev.kubeheadroom.testkit.RecordingAuthorizer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AclBinding;

/**
 * A least-privilege installation in one JVM: a SASL_SSL broker (SCRAM-SHA-512, a self-signed
 * certificate that each identity's properties file trusts) whose authorizer allows nothing
 * unless an ACL says so ({@link RecordingAuthorizer}, noting every decision), each Headroom
 * identity a principal of its own granted exactly {@link KafkaAcls}, the API double with a
 * kubelet, and each stage run as its real command ({@code headroom ingest ...}) on a thread of
 * its own with its identity's client properties file, as a pod of it would.
 */
final class SecuredKafkaCluster implements AutoCloseable {
  static final Duration STARTUP = Duration.ofSeconds(120);

  final ApiServerDouble api = ApiServerDouble.start();
  final KafkaAcls.Names names = KafkaAcls.Names.under(dev.kubeheadroom.schemas.Topics.defaults());
  private final KubeletDouble kubelet = KubeletDouble.start(api);
  private final Path dir;
  private final Path kubeconfig;
  private final EmbeddedKafka kafka;
  private final List<Thread> stages = new ArrayList<>();
  private final Map<String, Integer> exits = new ConcurrentHashMap<>();

  SecuredKafkaCluster(Path dir, String... moreUsers) {
    this.dir = dir;
    this.kubeconfig = dir.resolve("admin.kubeconfig");
    api.writeAdminKubeconfig(kubeconfig);
    List<String> users = new ArrayList<>();
    for (KafkaAcls.Identity identity : KafkaAcls.Identity.values()) {
      users.add(user(identity));
    }
    users.addAll(List.of(moreUsers));
    RecordingAuthorizer.clear();
    EmbeddedKafkaConfig config = EmbeddedKafkaConfig.ephemeral(dir.resolve("kafka"))
        .withSasl(SaslUsers.of(users.toArray(String[]::new)));
    for (Map.Entry<String, String> e : RecordingAuthorizer.CONFIG.entrySet()) {
      config = config.withBrokerProperty(e.getKey(), e.getValue());
    }
    kafka = EmbeddedKafka.start(config);
  }

  /** {@code headroom-<identity>}, e.g. {@code headroom-ingest}; the audit/explain one is {@code headroom-audit}. */
  static String user(KafkaAcls.Identity identity) {
    return "headroom-" + identity.name().toLowerCase(Locale.ROOT);
  }

  /** Grants {@code user} the given bindings' resources and operations, as the admin. */
  void grant(List<AclBinding> bindings) {
    try (Admin admin = kafka.admin()) {
      admin.createAcls(bindings).all().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("creating ACLs failed: " + e, e);
    }
  }

  /** Every identity's grants from {@link KafkaAcls}, {@code --topic-create=true} ones included. */
  void grantTheTable() {
    for (KafkaAcls.Identity identity : KafkaAcls.Identity.values()) {
      grant(KafkaAcls.bindings(identity, "User:" + user(identity), names, true));
    }
  }

  /** A Kubernetes cluster with one managed pod that has a CPU request and no limit, enforcing. */
  void seedCluster() {
    var seed = api.seedClient();
    seed.genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG).resource(new GenericKubernetesResourceBuilder()
        .withApiVersion(HeadroomKeys.GROUP + "/" + HeadroomKeys.VERSION).withKind("HeadroomConfig")
        .withNewMetadata().withName(HeadroomKeys.CONFIG_NAME).endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("dryRun", false))).build()).create();
    seed.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("team-a")
        .withLabels(Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED)).endMetadata().build()).create();
    seed.nodes().resource(new NodeBuilder().withNewMetadata().withName("n1")
        .withLabels(Map.of("kubernetes.io/os", "linux")).endMetadata()
        .withNewStatus().withAllocatable(Map.of("cpu", new Quantity("16"), "memory", new Quantity("64Gi")))
        .endStatus().build()).create();
    seed.pods().inNamespace("team-a").resource(new PodBuilder()
        .withNewMetadata().withNamespace("team-a").withName("web-1").endMetadata()
        .withNewSpec().withNodeName("n1").addNewContainer().withName("app").withImage("registry.example/app:1")
        .withNewResources().addToRequests("cpu", new Quantity("2")).addToRequests("memory", new Quantity("256Mi"))
        .endResources().endContainer().endSpec()
        .withNewStatus().withPhase("Running").withQosClass("Burstable").endStatus().build()).create();
  }

  /**
   * Starts {@code headroom <command>} as {@code identity} on a thread and returns its health
   * port; the command runs until {@link #close}.
   */
  int startStage(KafkaAcls.Identity identity, String command, String... more) {
    int health = freePort();
    List<String> args = new ArrayList<>(List.of(command));
    args.addAll(List.of(more));
    args.addAll(kafkaArgs(user(identity)));
    args.addAll(List.of("--topic-partitions", "2", "--topic-replication-factor", "1",
        "--topic-min-insync-replicas", "1", "--health-port", Integer.toString(health), "--metrics-port", "0",
        "--metrics-secure", "false", "--metrics-auth", "none"));
    Thread t = new Thread(() -> exits.put(command,
        Main.commandLine(InputStream.nullInputStream()).execute(args.toArray(String[]::new))), "stage-" + command);
    t.start();
    stages.add(t);
    return health;
  }

  /** Waits until {@code command}'s {@code /readyz} answers 200, failing at once if it exited. */
  void awaitReady(String command, int healthPort) {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest readyz = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + "/readyz"))
        .timeout(Duration.ofSeconds(2)).build();
    await(command + " ready").atMost(STARTUP).pollInterval(Duration.ofMillis(500)).until(() -> {
      if (exits.containsKey(command)) {
        throw new AssertionError(command + " exited with " + exits.get(command));
      }
      try {
        return http.send(readyz, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
      } catch (IOException e) {
        return false;
      }
    });
  }

  /** The commands that have exited, with their exit codes. */
  Map<String, Integer> exited() {
    return Map.copyOf(exits);
  }

  /** The flags a command run as {@code user} gets: the broker, and a client properties file logging in as it. */
  List<String> kafkaArgs(String user) {
    Path file = dir.resolve(user + ".properties");
    Properties p = new Properties();
    p.putAll(kafka.clientProperties(user));
    try (OutputStream out = Files.newOutputStream(file)) {
      p.store(out, "log in as " + user);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return List.of("--kafka-bootstrap-servers", kafka.bootstrapServers(), "--kafka-client-properties", file.toString());
  }

  Path kubeconfig() {
    return kubeconfig;
  }

  Path dir() {
    return dir;
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() throws Exception {
    stages.forEach(Thread::interrupt);
    for (Thread t : stages) {
      t.join(TimeUnit.SECONDS.toMillis(60));
    }
    kafka.close();
    kubelet.close();
    api.close();
  }
}
