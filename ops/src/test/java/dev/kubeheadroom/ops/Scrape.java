package dev.kubeheadroom.ops;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A parsed Prometheus text scrape: sample lines and the {@code # TYPE} of each family. */
record Scrape(String text, List<Sample> samples, Map<String, String> types) {
  private static final Pattern SAMPLE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (\\S+)$");
  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  record Sample(String name, Map<String, String> labels, double value) {}

  static Scrape parse(String text) {
    List<Sample> samples = new java.util.ArrayList<>();
    Map<String, String> types = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      if (line.startsWith("# TYPE ")) {
        String[] parts = line.split(" ");
        types.put(parts[2], parts[3]);
      } else if (!line.isBlank() && !line.startsWith("#")) {
        Matcher m = SAMPLE.matcher(line);
        if (!m.matches()) {
          throw new AssertionError("unparsable scrape line: " + line);
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (m.group(3) != null) {
          Matcher l = LABEL.matcher(m.group(3));
          while (l.find()) {
            labels.put(l.group(1), l.group(2));
          }
        }
        samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
      }
    }
    return new Scrape(text, List.copyOf(samples), Map.copyOf(types));
  }

  List<Sample> named(String name) {
    return samples.stream().filter(s -> s.name().equals(name)).toList();
  }

  boolean has(String name) {
    return samples.stream().anyMatch(s -> s.name().equals(name));
  }

  Optional<Double> value(String name, Map<String, String> labels) {
    return samples.stream()
        .filter(s -> s.name().equals(name) && s.labels().equals(labels))
        .map(Sample::value)
        .findFirst();
  }
}
