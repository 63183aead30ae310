package dev.kubeheadroom.cli;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Runs the launcher in-process with captured streams, as a user would from a shell. */
record CliRun(int exitCode, String stdout, String stderr) {
  static CliRun withStdin(String stdin, String... args) {
    return withStdin(stdin.getBytes(StandardCharsets.UTF_8), args);
  }

  static CliRun withStdin(byte[] stdin, String... args) {
    CommandLine cli = Main.commandLine(new ByteArrayInputStream(stdin));
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

  /** {@code args} against a broker and a topic prefix, as the log-reading commands take them. */
  static CliRun onKafka(String bootstrap, String topicPrefix, String... args) {
    String[] all = new String[args.length + 4];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--kafka-bootstrap-servers";
    all[args.length + 1] = bootstrap;
    all[args.length + 2] = "--topic-prefix";
    all[args.length + 3] = topicPrefix;
    return run(all);
  }
}
