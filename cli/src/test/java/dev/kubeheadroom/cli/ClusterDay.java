package dev.kubeheadroom.cli;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A seeded watch log shaped like a busy hour on a small cluster, for the pages' tests: four nodes,
 * pods arriving and leaving all along (so slack and factors move), one namespace managed.
 */
final class ClusterDay {
  private ClusterDay() {}

  static String log(long seed) {
    Random random = new Random(seed);
    Instant t = Instant.parse("2026-03-01T12:00:00Z");
    List<String> lines = new ArrayList<>();
    lines.add(line("ADDED", t, "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"shop\","
        + "\"uid\":\"ns-shop\",\"labels\":{\"kube-headroom.dev/mode\":\"managed\"}},\"status\":{\"phase\":\"Active\"}}"));
    for (int n = 1; n <= 4; n++) {
      lines.add(line("ADDED", t, "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-" + n
          + "\",\"uid\":\"n-" + n + "\",\"labels\":{\"kubernetes.io/os\":\"linux\"}},\"status\":{\"allocatable\":"
          + "{\"cpu\":\"" + (8 * n) + "\"},\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}"));
    }
    List<String> running = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      t = t.plusSeconds(20 + random.nextInt(60));
      if (running.size() > 8 && random.nextInt(3) == 0) {
        String gone = running.remove(random.nextInt(running.size()));
        lines.add(line("DELETED", t, gone));
        continue;
      }
      String pod = pod("web-" + i, "node-" + (1 + random.nextInt(4)), 250 * (1 + random.nextInt(8)));
      running.add(pod);
      lines.add(line("ADDED", t, pod));
    }
    return String.join("\n", lines) + "\n";
  }

  private static String pod(String name, String node, long requestMilli) {
    return String.format(Locale.ROOT, "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\","
        + "\"namespace\":\"shop\",\"uid\":\"uid-%s\"},\"spec\":{\"nodeName\":\"%s\",\"containers\":[{\"name\":\"app\","
        + "\"resources\":{\"requests\":{\"cpu\":\"%dm\"}},\"resizePolicy\":[{\"resourceName\":\"cpu\","
        + "\"restartPolicy\":\"NotRequired\"}]}]},\"status\":{\"phase\":\"Running\",\"qosClass\":\"Burstable\"}}",
        name, name, node, requestMilli);
  }

  private static String line(String type, Instant at, String object) {
    return "{\"type\":\"" + type + "\",\"at\":\"" + at + "\",\"object\":" + object + "}";
  }
}
