package dev.kubeheadroom.launcher;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Runs the full launcher ({@link Launcher}) in-process with captured streams, as {@code ./headroom} would. */
record CliRun(int exitCode, String stdout, String stderr) {
  static CliRun withStdin(String stdin, String... args) {
    CommandLine cli = Launcher.commandLine(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int code = cli.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }

  static CliRun run(String... args) {
    return withStdin("", args);
  }
}
