package dev.kubeheadroom.launcher;

import dev.kubeheadroom.cli.html.RunHistory;
import dev.kubeheadroom.cli.html.RunPage;
import dev.kubeheadroom.demo.LimitChange;
import dev.kubeheadroom.replay.ClusterReport;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The demo's page ({@code report.html} in its directory): the limit changes it saw over time and
 * its end state, drawn as {@code simulate -o html} draws a run; with {@code --open}, handed to the
 * desktop's opener.
 */
final class DemoReport {
  static final String FILE_NAME = "report.html";
  private static final String OPENER = "xdg-open";

  private DemoReport() {}

  /** Writes the page into {@code directory}; the live run does not record its decisions' times, only its changes. */
  static Path write(Path directory, List<LimitChange> changes, ClusterReport report) throws IOException {
    List<RunHistory.Patch> patches = changes.stream().map(c -> new RunHistory.Patch(c.at(), c.namespace(), c.pod(),
        c.container(), c.node(), c.fromMilli(), c.toMilli())).toList();
    Path page = directory.resolve(FILE_NAME);
    Files.writeString(page, RunPage.render("Headroom demo: the run's report", new RunHistory(List.of(), patches,
        report)), StandardCharsets.UTF_8);
    return page;
  }

  /** Opens {@code page} with xdg-open when the machine has it (not waited for); else says so on {@code err}. */
  static void open(Path page, PrintWriter err) {
    boolean found = Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .filter(dir -> !dir.isEmpty()).anyMatch(dir -> Files.isExecutable(Path.of(dir, OPENER)));
    if (!found) {
      err.println("headroom demo: --open: no " + OPENER + " on this machine; open " + page.toUri() + " in a browser");
      err.flush();
      return;
    }
    try {
      new ProcessBuilder(OPENER, page.toUri().toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    } catch (IOException e) {
      err.println("headroom demo: --open: " + OPENER + " failed: " + e.getMessage());
      err.flush();
    }
  }
}
