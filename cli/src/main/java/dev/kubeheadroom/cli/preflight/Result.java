package dev.kubeheadroom.cli.preflight;

import java.util.Objects;

/**
 * One row of the preflight report.
 *
 * @param check the check's stable name ({@code resourcequota})
 * @param status its verdict
 * @param finding what it found, naming the objects ({@code team-a/compute})
 * @param fix the exact step that clears a WARN or FAIL, or the next step after a PASS; null when none
 */
public record Result(String check, Status status, String finding, String fix) {
  public Result {
    Objects.requireNonNull(check, "check");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(finding, "finding");
  }

  static Result pass(String check, String finding) {
    return new Result(check, Status.PASS, finding, null);
  }

  static Result pass(String check, String finding, String fix) {
    return new Result(check, Status.PASS, finding, fix);
  }

  static Result warn(String check, String finding, String fix) {
    return new Result(check, Status.WARN, finding, fix);
  }

  static Result fail(String check, String finding, String fix) {
    return new Result(check, Status.FAIL, finding, fix);
  }
}
