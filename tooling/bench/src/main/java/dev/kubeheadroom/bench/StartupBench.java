package dev.kubeheadroom.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * What a person running {@code ./headroom} by hand waits for: whole processes, each a new JVM
 * (the files already in the page cache, the launcher already built), {@code --runs} of each
 * (5), interleaved so the machine's load falls on every command alike. The commands:
 * {@code ./headroom --help}; {@code ./headroom simulate -o json} of the log's first
 * {@code --small} lines (4,000) and of the whole log; the naive model
 * ({@code tooling/bench/naive/naive_replay.py}) on the whole log. Per command the median wall
 * seconds and the median CPU seconds (user + system of the process and its children, as bash's
 * {@code times} reports them), then the goals: {@code --help} ≤ 0.3 s, the small simulate ≤ 0.8 s,
 * the whole-log simulate ≥ 3× faster than the naive model at no more CPU; and the MD5 of the
 * whole log's report, which a start-up option must not change.
 *
 * <p>{@code --java-opts} lists JVM option sets separated by {@code ;}, each measured as its own
 * variant of the {@code ./headroom} commands through {@code HEADROOM_JAVA_OPTS} (an empty one is
 * the launcher as shipped): how tiered-compilation and collector choices were compared.
 *
 * <pre>
 * java -cp tooling/bench/target/benchmarks.jar dev.kubeheadroom.bench.StartupBench --log /tmp/trace.jsonl
 * </pre>
 */
public final class StartupBench {
  private StartupBench() {}

  /** One command as the bench runs it, and what its runs measured. */
  private record Command(String label, List<String> argv, boolean headroom, List<Double> wall, List<Double> cpu) {
    Command(String label, List<String> argv, boolean headroom) {
      this(label, argv, headroom, new ArrayList<>(), new ArrayList<>());
    }
  }

  public static void main(String[] args) throws IOException, InterruptedException, NoSuchAlgorithmException {
    Map<String, String> flags = Args.parse(args);
    Path log = Path.of(flags.getOrDefault("log", "/tmp/trace.jsonl"));
    int runs = Integer.parseInt(flags.getOrDefault("runs", "5"));
    int small = Integer.parseInt(flags.getOrDefault("small", "4000"));
    String headroom = flags.getOrDefault("headroom", "./headroom");
    String naive = flags.getOrDefault("naive", "tooling/bench/naive/naive_replay.py");
    List<String> variants = List.of(flags.getOrDefault("java-opts", "").split(";", -1));
    Path dir = Files.createTempDirectory("startup-bench");
    try {
      Path head = dir.resolve("head.jsonl");
      long lines = head(log, head, small);
      run(List.of(headroom, "--version"), "", true); // the one-time build, if it is still to do
      System.out.printf("whole log %s: %,d events; small log: its first %,d; %d runs each; load %s%n",
          log, lines, Math.min(small, lines), runs, load());
      for (String opts : variants) {
        List<Command> commands = List.of(
            new Command("./headroom --help", List.of(headroom, "--help"), true),
            new Command("./headroom simulate (small log)", simulate(headroom, head), true),
            new Command("./headroom simulate (whole log)", simulate(headroom, log), true),
            new Command("naive model (whole log)", List.of("python3", naive, log.toString()), false));
        for (int r = 0; r < runs; r++) {
          for (Command c : commands) {
            double[] measured = run(c.argv(), c.headroom() ? opts : "", false);
            c.wall().add(measured[0]);
            c.cpu().add(measured[1]);
          }
        }
        report(opts, commands, md5(simulate(headroom, log), opts));
      }
      System.out.printf("load at the end %s%n", load());
    } finally {
      TempDirs.deleteQuietly(dir);
    }
  }

  private static List<String> simulate(String headroom, Path log) {
    return List.of(headroom, "simulate", "--watch-log", log.toString(), "-o", "json");
  }

  private static void report(String opts, List<Command> commands, String md5) {
    System.out.printf("%nHEADROOM_JAVA_OPTS=\"%s\"%s%n", opts, opts.isBlank() ? " (the launcher as shipped)" : "");
    for (Command c : commands) {
      System.out.printf("  %-34s wall median %5.2f s (%.2f–%.2f)   CPU median %5.2f s%n", c.label(),
          median(c.wall()), min(c.wall()), max(c.wall()), median(c.cpu()));
    }
    double help = median(commands.get(0).wall());
    double small = median(commands.get(1).wall());
    double whole = median(commands.get(2).wall());
    double naive = median(commands.get(3).wall());
    double cpuRatio = median(commands.get(2).cpu()) / median(commands.get(3).cpu());
    System.out.printf("  --help ≤ 0.3 s: %s; small simulate ≤ 0.8 s: %s%n", verdict(help <= 0.3), verdict(small <= 0.8));
    System.out.printf("  whole-log simulate vs the naive model: %.2f× faster in wall time at %.2f× its CPU "
        + "(goal ≥ 3× at ≤ 1×): %s%n", naive / whole, cpuRatio, verdict(naive / whole >= 3 && cpuRatio <= 1));
    System.out.printf("  md5 of the whole log's simulate -o json: %s%n", md5);
  }

  private static String verdict(boolean met) {
    return met ? "met" : "MISSED";
  }

  /** Runs {@code argv} under bash, stdout discarded: {wall seconds, CPU seconds of it and its children}. */
  private static double[] run(List<String> argv, String javaOpts, boolean quiet) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("bash", "-c", "\"$@\" > /dev/null; s=$?; times; exit $s", "bench"));
    command.addAll(argv);
    ProcessBuilder pb = new ProcessBuilder(command).redirectError(
        quiet ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.INHERIT);
    pb.environment().put("HEADROOM_JAVA_OPTS", javaOpts);
    long start = System.nanoTime();
    Process p = pb.start();
    String times = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int exit = p.waitFor();
    double wall = (System.nanoTime() - start) / 1e9;
    if (exit != 0) {
      throw new IllegalStateException(String.join(" ", argv) + " exited " + exit);
    }
    // times: the shell's own user and system time, then its children's ("0m1.234s 0m0.056s").
    String[] children = times.strip().lines().reduce((a, b) -> b).orElseThrow().split("\\s+");
    return new double[] {wall, seconds(children[0]) + seconds(children[1])};
  }

  private static double seconds(String bashTime) {
    int m = bashTime.indexOf('m');
    return Integer.parseInt(bashTime.substring(0, m)) * 60 + Double.parseDouble(bashTime.substring(m + 1, bashTime.length() - 1));
  }

  private static String md5(List<String> argv, String javaOpts) throws IOException, InterruptedException, NoSuchAlgorithmException {
    ProcessBuilder pb = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT);
    pb.environment().put("HEADROOM_JAVA_OPTS", javaOpts);
    Process p = pb.start();
    MessageDigest md5 = MessageDigest.getInstance("MD5");
    try (InputStream out = p.getInputStream()) {
      byte[] buffer = new byte[1 << 16];
      for (int n; (n = out.read(buffer)) > 0; ) {
        md5.update(buffer, 0, n);
      }
    }
    p.waitFor();
    return HexFormat.of().formatHex(md5.digest());
  }

  /** Copies the first {@code lines} lines of {@code from} to {@code to}; the lines {@code from} holds. */
  private static long head(Path from, Path to, int lines) throws IOException {
    long count = 0;
    try (BufferedReader in = Files.newBufferedReader(from, StandardCharsets.UTF_8);
        BufferedWriter out = Files.newBufferedWriter(to, StandardCharsets.UTF_8)) {
      for (String line; (line = in.readLine()) != null; count++) {
        if (count < lines) {
          out.write(line);
          out.newLine();
        }
      }
    }
    return count;
  }

  private static String load() throws IOException {
    return Files.readString(Path.of("/proc/loadavg")).split(" ")[0] + " (1-minute, /proc/loadavg)";
  }

  private static double median(List<Double> xs) {
    List<Double> sorted = xs.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static double min(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  private static double max(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }
}
