package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code simulate} reads its log as bytes ({@link WatchLogReader#forProjection(java.io.InputStream)}:
 * {@link WatchLogBytes}, {@link ProjectedByteLine}); the yardstick is the same reader over the
 * log's text ({@link WatchLogReader#forProjection(BufferedReader)}, a UTF-8 decoder that reports
 * bad bytes, as {@code Files.newBufferedReader} makes it). Every log here must give the same items
 * both ways (the same malformed reasons and line numbers, equal objects, quantities spelled the
 * same), at every block size, so line ends and lines fall across block boundaries.
 */
class WatchLogBytesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final int[] BLOCKS = {1, 3, 8, 64, 1000, WatchLogBytes.DEFAULT_BLOCK};

  static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"creationTimestamp\":\"2026-03-01T01:28:39.649Z\","
      + "\"labels\":{\"app\":\"job\"},\"name\":\"p0\",\"namespace\":\"team\",\"ownerReferences\":[{\"apiVersion\":\"batch/v1\","
      + "\"kind\":\"Job\",\"blockOwnerDeletion\":true,\"controller\":true,\"name\":\"job\",\"uid\":\"j-1\"}],"
      + "\"resourceVersion\":\"6000\",\"uid\":\"u-1\",\"generation\":3},\"spec\":{\"containers\":[{\"image\":\"pause:3.10\","
      + "\"name\":\"app\",\"resizePolicy\":[{\"resourceName\":\"cpu\",\"restartPolicy\":\"NotRequired\"}],"
      + "\"resources\":{\"requests\":{\"cpu\":\"3152m\",\"memory\":\"5600Mi\"},\"limits\":{\"cpu\":\"4\"}}}],"
      + "\"nodeName\":\"n1\",\"restartPolicy\":\"Never\",\"terminationGracePeriodSeconds\":30,\"x\":[1.5e-3,-0,null,false,{}]},"
      + "\"status\":{\"conditions\":[{\"status\":\"True\",\"type\":\"PodScheduled\"}],\"phase\":\"Running\",\"qosClass\":\"Burstable\"}}";
  static final String NODE = "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/os\":"
      + "\"linux\"}},\"status\":{\"allocatable\":{\"cpu\":\"32\",\"memory\":\"256Gi\"},\"nodeInfo\":{\"operatingSystem\":\"linux\"}}}";

  static String line(String type, String object) {
    return "{\"type\":\"" + type + "\",\"at\":\"2026-03-01T00:00:01.5Z\",\"object\":" + object + "}";
  }

  /** The pod with {@code from} replaced by {@code to} (the first occurrence). */
  static String pod(String from, String to) {
    assertThat(POD).contains(from);
    return line("ADDED", POD.replaceFirst(java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to)));
  }

  /** Lines of every shape: bound from bytes, left to the text path, malformed, blank. */
  static List<String> corpus() {
    String longAnnotation = "x".repeat(5_000);
    return List.of(
        line("ADDED", POD), line("MODIFIED", NODE), line("DELETED", POD),
        "{\"object\":" + NODE + ",\"type\":\"ADDED\"}", // no at: the previous line's
        " \t" + line("ADDED", POD) + " \t", // whitespace around the line
        "{ \"type\" : \"ADDED\" ,\t\"object\" : { \"apiVersion\" : \"v1\" , \"kind\" : \"Node\" , \"metadata\" : { \"name\" : \"n\" } } }",
        // escapes and text outside ASCII, in kept and skipped strings, and in names
        pod("\"name\":\"p0\"", "\"name\":\"p\\\"0\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00\""),
        pod("\"app\":\"job\"", "\"app\":\"j\\u006fb\",\"k\\\\e\\\"y\":\"v\""),
        pod("\"name\":\"p0\"", "\"n\\u0061me\":\"p0\""),
        pod("\"image\":\"pause:3.10\"", "\"image\":\"pause:3.10 caf\u00e9 \u65e5\u672c \ud83d\ude00\""),
        pod("\"name\":\"p0\"", "\"name\":\"caf\u00e9\""),
        pod("\"namespace\":\"team\"", "\"namespace\":\"t\\u0000e\\u001fam\""),
        pod("\"image\":\"pause:3.10\"", "\"image\":\"bad \\x escape\""),
        pod("\"image\":\"pause:3.10\"", "\"image\":\"bad \\u12g4 escape\""),
        pod("\"image\":\"pause:3.10\"", "\"image\":\"raw \t tab\""),
        // quantities and numbers
        pod("\"3152m\"", "\"1e400\""), pod("\"3152m\"", "\"999999999999999999999999999Ki\""),
        pod("\"3152m\"", "\"-1\""), pod("\"3152m\"", "\"0.0000001m\""), pod("\"3152m\"", "\"bogus\""),
        pod("\"3152m\"", "\"\""), pod("\"3152m\"", "\"1.5.5\""), pod("\"3152m\"", "\"+1\""), pod("\"3152m\"", "\" 1\""),
        pod("\"3152m\"", "\"1000m\""), pod("\"3152m\"", "\"1E3\""), pod("\"3152m\"", "\"0x10\""), pod("\"3152m\"", "3"),
        pod("\"generation\":3", "\"generation\":-0"), pod("\"generation\":3", "\"generation\":9223372036854775807"),
        pod("\"generation\":3", "\"generation\":123456789012345678"), pod("\"generation\":3", "\"generation\":1e3"),
        pod("\"generation\":3", "\"generation\":01"), pod("\"generation\":3", "\"generation\":99999999999999999999"),
        pod("\"generation\":3", "\"generation\":-"), pod("\"generation\":3", "\"generation\":null"),
        pod("1.5e-3", "1.e3"), pod("1.5e-3", "-01"), pod("1.5e-3", "1e+"), pod("1.5e-3", "1" + "0".repeat(200)),
        pod("1.5e-3", "NaN"), pod("1.5e-3", "truex"), pod("1.5e-3", "nul"), pod("1.5e-3", "[[[[[[[[[[]]]]]]]]]]"),
        pod("1.5e-3", "[".repeat(40) + "]".repeat(40)), pod("1.5e-3", "[".repeat(600) + "]".repeat(600)),
        pod("1.5e-3", "{\"a\":1,}"), pod("1.5e-3", "[1,]"), pod("1.5e-3", "[,1]"), pod("1.5e-3", "{,}"),
        pod("1.5e-3", "{\"a\" 1}"), pod("1.5e-3", "{1:2}"), pod("1.5e-3", "'x'"),
        pod("\"controller\":true", "\"controller\":\"true\""), pod("\"controller\":true", "\"controller\":false"),
        pod("\"labels\":{\"app\":\"job\"}", "\"labels\":{}"), pod("\"labels\":{\"app\":\"job\"}", "\"labels\":null"),
        pod("\"labels\":{\"app\":\"job\"}", "\"annotations\":{\"a\":\"" + longAnnotation + "\"}"),
        // shapes the lean paths leave to the full one, and malformed lines
        pod("\"kind\":\"Pod\",", "\"kind\":\"Pod\",\"kind\":\"Pod\","), pod("\"apiVersion\":\"v1\",", ""),
        line("ADDED", "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p\"}}"),
        line("ADDED", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team\"}}"),
        line("ADDED", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}"), line("ADDED", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{}}"),
        line("TOUCHED", POD), line("ADDED", "null"), line("ADDED", "{}"),
        "{\"type\":\"ADDED\",\"at\":\"yesterday\",\"object\":" + NODE + "}",
        "{\"type\":\"ADDED\",\"at\":\"2026-02-30T00:00:00Z\",\"object\":" + NODE + "}",
        "{\"type\":\"ADDED\",\"at\":5,\"object\":" + NODE + "}", "{\"type\":\"ADDED\",\"at\":null,\"object\":" + NODE + "}",
        "{\"type\":\"ADDED\",\"at\":\"2026-03-01T00:00:02Z\",\"at\":\"2026-03-01T00:00:03Z\",\"object\":" + NODE + "}",
        "{\"type\":\"ADDED\",\"object\":" + NODE + ",\"object\":" + NODE + "}",
        line("ADDED", POD) + " x", line("ADDED", POD) + "{}", line("ADDED", POD) + "\u000b", line("ADDED", POD) + "}",
        line("ADDED", POD).substring(0, 300), "[1,2]", "42", "{", "\"x\"", "nul", "\u00e9", "{\"type\":\"ADDED\"}",
        // blank and nearly blank lines: String.isBlank's whitespace, and two that are not
        "", " ", "\t \u000b\f\u001c\u001f", "\u2003", "\u00a0", "\u200b");
  }

  @Test
  void everyShapeOfLineReadsTheSameAsTheTextAtEveryBlockSize() {
    List<String> lines = corpus();
    String[] breaks = {"\n", "\r\n", "\r"};
    StringBuilder log = new StringBuilder("\ufeff" + line("ADDED", NODE) + "\n"); // a byte order mark is a character
    for (int i = 0; i < lines.size(); i++) {
      log.append(lines.get(i)).append(breaks[i % breaks.length]);
    }
    log.append("\r\n\n\r\r").append(line("ADDED", POD)); // blank lines, then a last line without a break
    for (int block : BLOCKS) {
      assertThat(sameAsText(log.toString().getBytes(StandardCharsets.UTF_8), block)).as("block %d", block)
          .isGreaterThan(lines.size() / 2);
    }
  }

  @Test
  void aLongLogOfPlainLinesIsBoundFromItsBytes() {
    StringBuilder log = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      log.append(pod("\"uid\":\"u-1\"", "\"uid\":\"u-" + i + "\"")).append('\n').append(line("MODIFIED", NODE)).append('\n');
    }
    byte[] bytes = log.toString().getBytes(StandardCharsets.UTF_8);
    assertThat(sameAsText(bytes, 4096)).isEqualTo(200);
    WatchLogReader reader = WatchLogReader.forProjection(new ByteArrayInputStream(bytes), 4096);
    assertThat(WatchLogReader.stream(reader).count()).isEqualTo(200);
    assertThat(reader.linesBoundFromBytes()).as("lines bound from bytes").isEqualTo(200);
  }

  @Test
  void endsOfLogReadTheSameAsTheText() {
    for (String log : List.of("", "\n", "\r", "\r\n", " ", line("ADDED", NODE), line("ADDED", NODE) + "\r",
        "\n\n" + line("ADDED", NODE) + "\r\n", line("ADDED", NODE) + "\r\r\n" + line("DELETED", NODE))) {
      for (int block : BLOCKS) {
        sameAsText(log.getBytes(StandardCharsets.UTF_8), block);
      }
    }
  }

  /** Random damage to plain lines: whatever the bytes say, both readers say the same of them. */
  @Test
  void randomlyDamagedLinesReadTheSameAsTheText() {
    Random r = new Random(11);
    String alphabet = "{}[]\":,\\ntrufalse0123456789.eE+- \t\r\nu/x\u00e9\u65e5";
    List<String> plain = List.of(line("ADDED", POD), line("DELETED", NODE), pod("\"app\":\"job\"", "\"app\":\"j\\\"ob\""));
    StringBuilder log = new StringBuilder();
    for (int i = 0; i < 1_000; i++) {
      StringBuilder s = new StringBuilder(plain.get(r.nextInt(plain.size())));
      for (int k = 1 + r.nextInt(3); k > 0; k--) {
        int at = r.nextInt(s.length());
        switch (r.nextInt(3)) {
          case 0 -> s.setCharAt(at, alphabet.charAt(r.nextInt(alphabet.length())));
          case 1 -> s.deleteCharAt(at);
          default -> s.insert(at, alphabet.charAt(r.nextInt(alphabet.length())));
        }
      }
      log.append(s).append('\n');
    }
    assertThat(sameAsText(log.toString().getBytes(StandardCharsets.UTF_8), 1 << 12)).isGreaterThan(1_000);
  }

  @Test
  void aLineThatIsNotUtf8IsMalformedNamingItsFirstBadByteAndReadingGoesOn() {
    for (byte[] bad : List.of(new byte[] {(byte) 0xff}, new byte[] {(byte) 0xc3}, new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
        new byte[] {(byte) 0xc0, (byte) 0xaf}, new byte[] {(byte) 0xe9})) {
      ByteArrayOutputStream log = new ByteArrayOutputStream();
      log.writeBytes((line("ADDED", NODE) + "\n").getBytes(StandardCharsets.UTF_8));
      byte[] head = pod("\"image\":\"pause:3.10\"", "\"image\":\"").getBytes(StandardCharsets.UTF_8);
      log.writeBytes(head);
      log.writeBytes(bad);
      log.writeBytes("\"}}\n".getBytes(StandardCharsets.UTF_8));
      log.writeBytes((line("MODIFIED", NODE) + "\n").getBytes(StandardCharsets.UTF_8));
      for (int block : BLOCKS) {
        List<WatchLogItem> items = readBytes(log.toByteArray(), block);
        assertThat(items).as("block %d", block).hasSize(3);
        assertThat(items.get(0)).isInstanceOf(WatchEvent.class);
        assertThat(items.get(1)).isEqualTo(new Malformed(2, "not UTF-8: byte " + (head.length + 1) + " of the line"));
        assertThat(((WatchEvent) items.get(2)).type()).isEqualTo(WatchEvent.Type.MODIFIED);
      }
    }
  }

  @Test
  void readingAFileBindsObjectsWholeAndALineThatIsNotUtf8IsMalformedAndSkipped(@TempDir Path dir) throws IOException {
    // WatchLogReader.read(Path), the demo's and the scenarios' reader: it once decoded the file as
    // one UTF-8 text, so a single Latin-1 byte ended the whole read in an UncheckedIOException.
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    log.writeBytes((line("ADDED", NODE) + "\n").getBytes(StandardCharsets.UTF_8));
    byte[] head = pod("\"image\":\"pause:3.10\"", "\"image\":\"caf").getBytes(StandardCharsets.UTF_8);
    log.writeBytes(head);
    log.writeBytes(new byte[] {(byte) 0xe9}); // é in Latin-1
    log.writeBytes("\"}}\n".getBytes(StandardCharsets.UTF_8));
    log.writeBytes((pod("\"image\":\"pause:3.10\"", "\"image\":\"caf\u00e9\"") + "\n").getBytes(StandardCharsets.UTF_8));
    Path file = Files.write(dir.resolve("log.jsonl"), log.toByteArray());

    List<WatchLogItem> items;
    try (Stream<WatchLogItem> read = WatchLogReader.read(file)) {
      items = read.toList();
    }

    assertThat(items).hasSize(3);
    assertThat(((WatchEvent) items.get(0)).object()).isInstanceOf(Node.class);
    assertThat(items.get(1)).isEqualTo(new Malformed(2, "not UTF-8: byte " + (head.length + 1) + " of the line"));
    Pod pod = (Pod) ((WatchEvent) items.get(2)).object();
    assertThat(pod.getSpec().getContainers().get(0).getImage()).as("bound whole, not for projection only")
        .isEqualTo("caf\u00e9");
  }

  /** Asserts both readers give the same items; returns how many. */
  static int sameAsText(byte[] log, int block) {
    List<WatchLogItem> text = readText(log);
    List<WatchLogItem> bytes = readBytes(log, block);
    assertThat(bytes.stream().map(WatchLogBytesTest::describe).toList()).as("block %d", block)
        .isEqualTo(text.stream().map(WatchLogBytesTest::describe).toList());
    for (int i = 0; i < text.size(); i++) {
      if (text.get(i) instanceof WatchEvent a && bytes.get(i) instanceof WatchEvent b) {
        assertThat(sameObject(a, b)).as("block %d, %s", block, a).isTrue();
      }
    }
    return text.size();
  }

  static List<WatchLogItem> readText(byte[] log) {
    BufferedReader in = new BufferedReader(new InputStreamReader(new ByteArrayInputStream(log),
        StandardCharsets.UTF_8.newDecoder()));
    try (Stream<WatchLogItem> items = WatchLogReader.stream(WatchLogReader.forProjection(in))) {
      return items.toList();
    }
  }

  static List<WatchLogItem> readBytes(byte[] log, int block) {
    try (Stream<WatchLogItem> items = WatchLogReader.stream(WatchLogReader.forProjection(new ByteArrayInputStream(log), block))) {
      return items.toList();
    }
  }

  /**
   * An item as text: a malformed line's number and reason, or an event's number, type, time, kind
   * and every quantity's amount and format apart ({@code Quantity.equals} compares values only).
   */
  static String describe(WatchLogItem item) {
    if (!(item instanceof WatchEvent e)) {
      return item.toString();
    }
    return List.of(e.lineNumber(), e.type(), e.at(), e.object().getClass().getSimpleName(), quantities(item)).toString();
  }

  /** Equal objects; as JSON when {@code equals} throws (a {@code Quantity} its constructor took but cannot compare). */
  static boolean sameObject(WatchEvent a, WatchEvent b) {
    try {
      return a.object().equals(b.object());
    } catch (RuntimeException e) {
      try {
        return JSON.writeValueAsString(a.object()).equals(JSON.writeValueAsString(b.object()));
      } catch (JsonProcessingException x) {
        throw new UncheckedIOException(x);
      }
    }
  }

  /** Every quantity of a pod or node as amount and format. */
  static List<String> quantities(WatchLogItem item) {
    List<String> out = new ArrayList<>();
    if (item instanceof WatchEvent e && e.object() instanceof Pod pod && pod.getSpec() != null) {
      List<Container> all = new ArrayList<>(pod.getSpec().getContainers());
      all.addAll(pod.getSpec().getInitContainers());
      add(out, pod.getSpec().getResources());
      all.forEach(c -> add(out, c.getResources()));
    } else if (item instanceof WatchEvent e && e.object() instanceof Node node && node.getStatus() != null) {
      add(out, node.getStatus().getAllocatable());
    }
    return out;
  }

  private static void add(List<String> out, ResourceRequirements r) {
    if (r != null) {
      add(out, r.getRequests());
      add(out, r.getLimits());
    }
  }

  private static void add(List<String> out, Map<String, Quantity> quantities) {
    if (quantities != null) {
      quantities.forEach((k, q) -> out.add(k + "=" + q.getAmount() + "|" + q.getFormat()));
    }
  }
}
