package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** {@code kubectl get pods -w -o json}'s concatenated pretty-printed objects, read as a watch log. */
class PrettyJsonLinesTest {
  /** A Node as kubectl prints it (4-space indentation, one field per line), 12 lines. */
  static final String NODE = """
      {
          "apiVersion": "v1",
          "kind": "Node",
          "metadata": {
              "name": "n1"
          },
          "status": {
              "allocatable": {
                  "cpu": "4"
              }
          }
      }
      """;
  /** A pod as kubectl prints it, 24 lines; a string holding braces and an escaped quote. */
  static final String POD = """
      {
          "apiVersion": "v1",
          "kind": "Pod",
          "metadata": {
              "annotations": {
                  "note": "a } and a \\" and a {"
              },
              "name": "web-1",
              "namespace": "team-a",
              "uid": "u1"
          },
          "spec": {
              "containers": [
                  {
                      "image": "pause:3.10",
                      "name": "app",
                      "resources": {
                          "requests": {
                              "cpu": "500m"
                          }
                      }
                  }
              ],
              "nodeName": "n1"
          }
      }
      """;

  static List<WatchLogItem> read(String log) {
    try (Stream<WatchLogItem> items = WatchLogReader.stream(WatchLogReader.forProjection(
        new PrettyJsonLines(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)))))) {
      return items.toList();
    }
  }

  @Test
  void kubectlsPrettyObjectsAreUpsertsNamedByTheLineTheyStartOn() {
    List<WatchLogItem> items = read(NODE + POD + POD.replace("500m", "700m"));

    assertThat(items).hasSize(3).allMatch(i -> i instanceof WatchEvent e && e.type() == WatchEvent.Type.MODIFIED);
    assertThat(items).extracting(WatchLogItem::lineNumber).containsExactly(1L, 13L, 39L);
    assertThat(((WatchEvent) items.get(0)).object()).isInstanceOf(Node.class);
    Pod pod = (Pod) ((WatchEvent) items.get(2)).object();
    assertThat(pod.getMetadata().getAnnotations()).containsEntry("note", "a } and a \" and a {");
  }

  @Test
  void withOutputWatchEventsTheTypeIsKeptAndADeletionIsOne() {
    String event = "{\n    \"type\": \"%s\",\n    \"object\": " + POD.strip().replace("\n", "\n    ") + "\n}\n";
    List<WatchLogItem> items = read(String.format(event, "ADDED") + String.format(event, "DELETED"));

    assertThat(items).extracting(i -> ((WatchEvent) i).type())
        .containsExactly(WatchEvent.Type.ADDED, WatchEvent.Type.DELETED);
    assertThat(items).extracting(WatchLogItem::lineNumber).containsExactly(1L, 30L);
  }

  @Test
  void aCutObjectIsMalformedAtItsFirstLineAndTheNextObjectIsRead() {
    String cut = POD.substring(0, POD.indexOf("    \"spec\"")); // 11 whole lines

    List<WatchLogItem> items = read(cut + NODE);

    assertThat(items).hasSize(2);
    assertThat(items.get(0)).isInstanceOf(Malformed.class).extracting(WatchLogItem::lineNumber).isEqualTo(1L);
    assertThat(items.get(1)).isInstanceOf(WatchEvent.class).extracting(WatchLogItem::lineNumber).isEqualTo(12L);
  }

  @Test
  void aLogInTheUsualFormPassesThroughByteForByte() throws IOException {
    Random r = new Random(7);
    StringBuilder log = new StringBuilder();
    for (int i = 0; i < 2_000; i++) {
      log.append("{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"n\":").append(r.nextInt())
          .append(List.of("\n", "\r\n", "\n\n", "  \n", "\r").get(r.nextInt(5)));
    }
    log.append(" {\"unterminated\":[");
    byte[] bytes = log.toString().getBytes(StandardCharsets.UTF_8);
    for (int chunk : new int[] {1, 7, 8192}) {
      assertThat(readAll(new PrettyJsonLines(new ByteArrayInputStream(bytes)), chunk)).as("chunk %d", chunk)
          .isEqualTo(bytes);
    }
  }

  private static byte[] readAll(InputStream in, int chunk) {
    try (in) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      byte[] b = new byte[chunk];
      int n;
      while ((n = in.read(b, 0, chunk)) >= 0) {
        out.write(b, 0, n);
      }
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
