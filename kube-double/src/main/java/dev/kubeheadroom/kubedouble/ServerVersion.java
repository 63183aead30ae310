package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the double answers at {@code GET /version}: the fields of a real API server's
 * {@code version.Info} that clients read. The stock mock's {@code /version} expectation is not
 * reachable through a custom dispatcher, so the double serves it itself.
 *
 * @param major {@code "1"}
 * @param minor {@code "35"}, or {@code "35+"} as some managed offerings report it
 * @param gitVersion {@code "v1.35.0"}
 */
public record ServerVersion(String major, String minor, String gitVersion) {
  private static final Pattern SEMVER = Pattern.compile("v?(\\d+)\\.(\\d+)\\..*");
  private static final Pattern LEADING_DIGITS = Pattern.compile("\\d+");

  /** A current, GA in-place-resize server: {@code v1.35.0}. */
  public static final ServerVersion DEFAULT = of("v1.35.0");

  public ServerVersion {
    if (major == null || minor == null || gitVersion == null) {
      throw new IllegalArgumentException("major, minor and gitVersion are required");
    }
  }

  /** From a git version like {@code v1.33.2} or {@code v1.34.1-gke.100}. */
  public static ServerVersion of(String gitVersion) {
    Matcher m = SEMVER.matcher(gitVersion == null ? "" : gitVersion);
    if (!m.matches()) {
      throw new IllegalArgumentException("expected a version like v1.35.0, got " + gitVersion);
    }
    return new ServerVersion(m.group(1), m.group(2), gitVersion);
  }

  /** The minor as a number: {@code 35} of {@code "35"} or {@code "35+"}; 0 when it has no digits. */
  public int minorNumber() {
    Matcher m = LEADING_DIGITS.matcher(minor);
    return m.lookingAt() ? Integer.parseInt(m.group()) : 0;
  }

  /** Whether this is {@code 1.minimumMinor} or later (there is no major before 1). */
  public boolean atLeast(int minimumMinor) {
    return !"1".equals(major) || minorNumber() >= minimumMinor;
  }

  ObjectNode toJson() {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("major", major);
    json.put("minor", minor);
    json.put("gitVersion", gitVersion);
    json.put("gitCommit", "0000000000000000000000000000000000000000");
    json.put("gitTreeState", "clean");
    json.put("buildDate", "2025-12-17T00:00:00Z");
    json.put("goVersion", "go1.25.5");
    json.put("compiler", "gc");
    json.put("platform", "linux/amd64");
    return json;
  }
}
