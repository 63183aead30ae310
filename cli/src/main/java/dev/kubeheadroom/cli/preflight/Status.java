package dev.kubeheadroom.cli.preflight;

/** A check's verdict. Only {@link #FAIL} blocks enforcement (non-zero exit). */
public enum Status {
  /** Nothing to do (a note in the finding may still say what to expect). */
  PASS,
  /** Headroom runs, but some pods stay unmanaged or limits are bounded; the fix says how to avoid it. */
  WARN,
  /** Enforcement would break (403s, no resize API, nothing resizable): fix before enrolling. */
  FAIL
}
