package dev.kubeheadroom.projection;

/** One non-blank line of a watch log: an event, or why the line was skipped. */
public sealed interface WatchLogItem permits WatchEvent, Malformed {
  /** 1-based physical line number in the log. */
  long lineNumber();
}
