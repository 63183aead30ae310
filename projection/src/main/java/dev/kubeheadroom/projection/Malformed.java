package dev.kubeheadroom.projection;

/** A watch-log line that was skipped, and why (one line, for the simulate summary). */
public record Malformed(long lineNumber, String reason) implements WatchLogItem {
  @Override
  public String toString() {
    return "line " + lineNumber + ": " + reason;
  }
}
