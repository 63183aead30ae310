package dev.kubeheadroom.cli;

/** CPU quantities for people: {@code 2}, {@code 1500m}. */
final class ReportWriterAccess {
  private ReportWriterAccess() {}

  static String cpu(long milli) {
    return milli % 1000 == 0 ? Long.toString(milli / 1000) : milli + "m";
  }
}
