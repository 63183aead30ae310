package dev.kubeheadroom.projection;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * Not a test: measures watch-log lines/s on a synthetic 100k-line log of Pod MODIFIED events shaped
 * like the contract example (two containers, resize policies, owner refs, status), in three steps:
 * read + bind ({@link WatchLogReader}), then also {@link PodProjection}.
 *
 * <pre>java -cp projection/target/classes:projection/target/test-classes:$(deps) \
 *     dev.kubeheadroom.projection.WatchLogThroughput [lines] [rounds]</pre>
 */
public final class WatchLogThroughput {
  public static void main(String[] args) throws IOException {
    int lines = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    String template = Files.readAllLines(
        Path.of("projection/src/test/resources/contract-example.jsonl"), StandardCharsets.UTF_8).get(5);
    StringBuilder log = new StringBuilder(lines * (template.length() + 8));
    for (int i = 0; i < lines; i++) {
      log.append(template.replace("beta-1", "beta-" + i).replace("0b1e0002", String.format("%08x", i))
          .replace("\"n1\"", "\"n" + (i % 500) + "\"")
          .replace("\"cpu\":\"2\"", "\"cpu\":\"" + (100 + i % 1900) + "m\"")).append('\n');
    }
    String text = log.toString();
    System.out.printf("log: %d lines, %.1f MB%n", lines, text.length() / 1e6);
    for (int r = 0; r < rounds; r++) {
      long t0 = System.nanoTime();
      long events = 0;
      WatchLogReader reader = new WatchLogReader(new BufferedReader(new StringReader(text)));
      while (reader.hasNext()) {
        if (reader.next() instanceof WatchEvent) {
          events++;
        }
      }
      long t1 = System.nanoTime();
      long containers = 0;
      reader = new WatchLogReader(new BufferedReader(new StringReader(text)));
      while (reader.hasNext()) {
        if (reader.next() instanceof WatchEvent e && e.object() instanceof Pod pod) {
          containers += PodProjection.project(pod, false).map(p -> p.containers().size()).orElse(0);
        }
      }
      long t2 = System.nanoTime();
      System.out.printf("round %d: read+bind %,.0f lines/s; read+bind+project %,.0f lines/s (%d events, %d containers)%n",
          r, lines / ((t1 - t0) / 1e9), lines / ((t2 - t1) / 1e9), events, containers);
    }
  }
}
