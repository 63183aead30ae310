package dev.kubeheadroom.bench;

import java.util.HashMap;
import java.util.Map;

/** {@code --name value} pairs of a harness main; a bare {@code --flag} maps to "true". */
final class Args {
  private Args() {}

  /** Logs at WARN unless told otherwise: INFO lines from Kafka would cost more than they tell. */
  static void quietLogs() {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
  }

  static Map<String, String> parse(String[] args) {
    Map<String, String> out = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --name value, got " + args[i]);
      }
      String name = args[i].substring(2);
      if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
        out.put(name, args[++i]);
      } else {
        out.put(name, "true");
      }
    }
    return out;
  }

  /** The integer value of {@code --name}, or {@code fallback} when absent. */
  static int integer(Map<String, String> args, String name, int fallback) {
    String value = args.get(name);
    return value == null ? fallback : Integer.parseInt(value);
  }
}
