package dev.kubeheadroom.cli.preflight;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The API server's version, as {@code GET /version} reports it. Managed offerings report minors
 * like {@code "35+"}; the number is what counts. {@code minor} is -1 when nothing parses.
 */
public record KubeVersion(String gitVersion, int major, int minor) {
  private static final Pattern LEADING_NUMBER = Pattern.compile("(\\d+).*");
  private static final Pattern GIT_VERSION = Pattern.compile("v?(\\d+)\\.(\\d+).*");

  /** From {@code VersionInfo}'s major, minor and gitVersion; gitVersion fills in what the others lack. */
  public static KubeVersion parse(String major, String minor, String gitVersion) {
    int maj = number(major);
    int min = number(minor);
    Matcher git = GIT_VERSION.matcher(gitVersion == null ? "" : gitVersion);
    if ((maj < 0 || min < 0) && git.matches()) {
      maj = Integer.parseInt(git.group(1));
      min = Integer.parseInt(git.group(2));
    }
    String shown = gitVersion != null && !gitVersion.isEmpty() ? gitVersion : major + "." + minor;
    return new KubeVersion(shown, maj, maj < 0 ? -1 : min);
  }

  /** Whether this is {@code major.minor} or later. */
  public boolean atLeast(int major, int minor) {
    return this.major > major || (this.major == major && this.minor >= minor);
  }

  public boolean known() {
    return major >= 0 && minor >= 0;
  }

  private static int number(String s) {
    Matcher m = LEADING_NUMBER.matcher(s == null ? "" : s);
    return m.matches() ? Integer.parseInt(m.group(1)) : -1;
  }
}
