package dev.kubeheadroom.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Headless Chromium (Debian package {@code chromium}; {@code .ci/run} installs it), for tests that
 * open a page in a real browser: the DOM it built ({@code --dump-dom}) and a screenshot. A test
 * that needs it is skipped where it is absent, and fails instead on CI ({@code CI=true}), which
 * installs it: a browser test CI skipped would pass for nothing.
 */
public final class Chromium {
  private static final List<Path> CANDIDATES = List.of(Path.of("/usr/bin/chromium"),
      Path.of("/usr/bin/chromium-browser"), Path.of("/usr/bin/google-chrome"));
  private static final long TIMEOUT_SECONDS = 90;

  private final Path binary;

  private Chromium(Path binary) {
    this.binary = binary;
  }

  /** The installed browser ({@code CHROMIUM} names another), or the calling test is skipped (failed on CI). */
  public static Chromium require() {
    Path found = InstalledTool.find("CHROMIUM", CANDIDATES).orElse(null);
    if (found == null) {
      String reason = "chromium not installed (apt-get install chromium); skipped";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        throw new IllegalStateException(reason + " (CI must run it)");
      }
      Assumptions.abort(reason);
    }
    return new Chromium(found);
  }

  /** The page's DOM as the browser built it from {@code page} (a local file). */
  public String dumpDom(Path page) throws IOException, InterruptedException {
    return run(page, "--dump-dom");
  }

  /** A PNG of {@code page} as the browser draws it, {@code width} × {@code height} pixels. */
  public Path screenshot(Path page, Path png, int width, int height) throws IOException, InterruptedException {
    Files.createDirectories(png.toAbsolutePath().getParent());
    Files.deleteIfExists(png);
    run(page, "--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height,
        "--hide-scrollbars");
    if (!Files.isRegularFile(png)) {
      throw new IllegalStateException("chromium wrote no screenshot at " + png);
    }
    return png;
  }

  private String run(Path page, String... args) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory("chromium-profile");
    List<String> command = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--no-first-run", "--disable-extensions", "--user-data-dir=" + profile));
    command.addAll(List.of(args));
    command.add(page.toAbsolutePath().toUri().toString());
    Path log = profile.resolve("stderr.log");
    try {
      Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
      process.getOutputStream().close();
      byte[] out = process.getInputStream().readAllBytes();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("chromium did not finish in " + TIMEOUT_SECONDS + " s");
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException("chromium exited " + process.exitValue() + ": " + Files.readString(log));
      }
      return new String(out, StandardCharsets.UTF_8);
    } finally {
      delete(profile);
    }
  }

  /** The throwaway profile: the browser's files under it, then the directory. */
  private static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
