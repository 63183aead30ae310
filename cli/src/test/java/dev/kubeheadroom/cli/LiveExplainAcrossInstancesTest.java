package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import dev.kubeheadroom.testkit.WithKafka;
import dev.kubeheadroom.topology.LiveBooking;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code explain --live} against two and three topology instances on a real broker, as the chart
 * runs them (each advertising its bookings endpoint, one standby replica, bearer tokens reviewed):
 * any instance answers for a pod on any instance, forwarding the caller's token to the owner; an
 * owner whose endpoint does not answer is stood in for by a standby copy, with its lag; a stopped
 * instance's pods are answered again; a pod no instance holds falls back to the replay.
 */
@WithKafka
class LiveExplainAcrossInstancesTest {
  /** Enough that some land on the partitions an instance holds no copy of (3 instances, 6 partitions). */
  private static final int NODES = 24;
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  @TempDir Path state;

  @Test
  void twoInstancesAnswerForEveryPodAndAStandbyStandsInForAnActiveThatDoesNotAnswer(KafkaBroker kafka)
      throws Exception {
    Topics topics = seed(kafka);
    try (BookingInstances topology = new BookingInstances(kafka.bootstrapServers(), topics, state, 2, 1)) {
      topology.awaitReady(PATIENCE);
      String first = topology.get(0).url();
      Map<String, LiveBooking> fromFirst = everyPod(first);
      // both instances own some of the nodes, and the first answered for the second's from it
      assertThat(fromFirst.values()).extracting(LiveBooking::servedBy)
          .containsOnly(topology.get(0).host(), topology.get(1).host())
          .contains(topology.get(0).host(), topology.get(1).host());
      assertThat(fromFirst.values()).extracting(LiveBooking::standbyLag).containsOnlyNulls();
      assertThat(everyPod(topology.get(1).url())).allSatisfy((pod, b) -> assertThat(b.booking().node())
          .isEqualTo(fromFirst.get(pod).booking().node()));
      String secondsPod = podServedBy(fromFirst, topology.get(1).host());

      CliRun live = explain(secondsPod, first);
      assertThat(live.exitCode()).as(live.stderr()).isZero();
      assertThat(live.stderr()).isEmpty();
      assertThat(live.stdout()).contains("Pod team-a/" + secondsPod + " on node " + fromFirst.get(secondsPod).booking().node());

      topology.unreachable(1); // its topology still owns those nodes; its endpoint is gone
      LiveExplain.Answer standby = ask(first, secondsPod);
      assertThat(standby.booking()).as(standby.whyNot()).isNotNull();
      assertThat(standby.booking().servedBy()).isEqualTo(topology.get(0).host());
      assertThat(standby.booking().standbyLag()).isNotNull().isNotNegative();
      CliRun fromStandby = explain(secondsPod, first);
      assertThat(fromStandby.exitCode()).as(fromStandby.stderr()).isZero();
      assertThat(fromStandby.stderr().strip()).startsWith("headroom explain: read from a standby copy on "
          + topology.get(0).host() + ", ").endsWith("changelog records behind (the node's active instance did not answer)")
          .doesNotContain("\n");
    }
  }

  @Test
  void threeInstancesAnswerForEveryPodFromAnyAndAgainOnceOneStops(KafkaBroker kafka) throws Exception {
    Topics topics = seed(kafka);
    try (BookingInstances topology = new BookingInstances(kafka.bootstrapServers(), topics, state, 3, 1)) {
      topology.awaitReady(PATIENCE);
      Map<String, LiveBooking> fromFirst = everyPod(topology.get(0).url());
      assertThat(fromFirst.values()).extracting(LiveBooking::servedBy)
          .containsOnly(topology.all().stream().map(BookingInstances.Instance::host).toArray(String[]::new));
      for (BookingInstances.Instance other : topology.all().subList(1, 3)) {
        assertThat(everyPod(other.url())).allSatisfy((pod, b) -> assertThat(b.booking().node())
            .isEqualTo(fromFirst.get(pod).booking().node()));
      }

      // Forwarded, a request is answered from the receiver's own copies or 404, never forwarded again:
      // the first instance holds no copy of some nodes (3 instances, 1 standby), and those it
      // answered above by asking the others.
      Map<Integer, List<String>> forwarded = new TreeMap<>();
      for (String pod : fromFirst.keySet()) {
        HttpResponse<byte[]> r = forwardedTo(topology.get(0).url(), pod);
        forwarded.computeIfAbsent(r.statusCode(), k -> new java.util.ArrayList<>()).add(pod);
        if (r.statusCode() == 200) {
          assertThat(JsonCodec.decode(r.body(), LiveBooking.class).servedBy()).isEqualTo(topology.get(0).host());
        }
      }
      assertThat(forwarded).containsOnlyKeys(200, 404);

      CliRun nobody = explain("nope", topology.get(0).url());
      assertThat(nobody.stderr()).contains("headroom explain: " + topology.get(0).url()
          + " answered 404: pod team-a/nope is on none of the topology's 3 instances' nodes; replaying the log instead");

      topology.stop(2);
      Map<String, LiveBooking> afterStop = everyPod(topology.get(0).url());
      assertThat(afterStop.values()).extracting(LiveBooking::servedBy)
          .doesNotContain(topology.get(2).host());
      assertThat(afterStop).allSatisfy((pod, b) -> assertThat(b.booking().node())
          .isEqualTo(fromFirst.get(pod).booking().node()));
    }
  }

  /** Every seeded pod's answer from {@code url}, asked until each is 200 (bookings arrive, tasks move). */
  private static Map<String, LiveBooking> everyPod(String url) throws InterruptedException {
    Map<String, LiveBooking> answers = new TreeMap<>();
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    for (int i = 0; i < NODES; i++) {
      String pod = "web-" + i;
      LiveExplain.Answer answer = ask(url, pod);
      while (answer.booking() == null) {
        assertThat(System.nanoTime()).as(pod + " from " + url + ": " + answer.whyNot()).isLessThan(deadline);
        Thread.sleep(200);
        answer = ask(url, pod);
      }
      assertThat(answer.booking().booking().node()).isEqualTo("n" + i);
      answers.put(pod, answer.booking());
    }
    return answers;
  }

  /** As another instance forwards it: with the forwarding header and the caller's token. */
  private static HttpResponse<byte[]> forwardedTo(String url, String pod) throws Exception {
    HttpClient http = HttpClient.newBuilder().sslContext(HttpTls.trustingEveryone()).build();
    return http.send(HttpRequest.newBuilder(URI.create(url + "/bookings?namespace=team-a&name=" + pod))
        .header("Headroom-Forwarded-By", "127.0.0.1:1").header("Authorization", "Bearer " + BookingInstances.TOKEN)
        .GET().build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static String podServedBy(Map<String, LiveBooking> answers, String host) {
    return answers.entrySet().stream().filter(e -> e.getValue().servedBy().equals(host)).findFirst().orElseThrow()
        .getKey();
  }

  private static LiveExplain.Answer ask(String url, String pod) {
    return LiveExplain.ask(url, "team-a", pod, HttpTls.trustingEveryone(), BookingInstances.TOKEN);
  }

  private CliRun explain(String pod, String url) {
    return CliRun.onKafka(bootstrap, prefix, "explain", "team-a/" + pod, "--live", url, "--live-insecure",
        "--live-token", BookingInstances.TOKEN);
  }

  private String bootstrap;
  private String prefix;

  /** Topics of 6 partitions; the config, a managed namespace, and {@code NODES} nodes of one pod each. */
  private Topics seed(KafkaBroker kafka) throws Exception {
    bootstrap = kafka.bootstrapServers();
    Topics topics = new Topics(TestKafka.uniqueName("live") + ".");
    prefix = topics.prefix();
    try (Admin admin = kafka.admin()) {
      TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(6), Duration.ofSeconds(30));
    }
    try (KafkaProducer<String, byte[]> p = kafka.producer(new StringSerializer(), new ByteArraySerializer())) {
      p.send(new ProducerRecord<>(topics.config(), HeadroomKeys.CONFIG_NAME,
          JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false))));
      p.send(new ProducerRecord<>(topics.namespaces(), "team-a", JsonCodec.encode(
          new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0))));
      for (int i = 0; i < NODES; i++) {
        String node = "n" + i;
        for (NodeEvent e : List.<NodeEvent>of(new NodeSnapshot(node, 16000, "linux", false, Map.of()),
            CheckpointAuditTest.pod(node, "web-" + i, 500))) {
          String topic = e instanceof NodeSnapshot ? topics.nodes() : topics.pods();
          p.send(new ProducerRecord<>(topic, node, JsonCodec.encode(e)));
        }
      }
      p.flush();
    }
    return topics;
  }
}
