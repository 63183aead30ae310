package dev.kubeheadroom.launcher;

import dev.kubeheadroom.cli.Subcommands;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Help.Ansi;

/**
 * The top-level usage ({@code ./headroom}, {@code --help}, {@code -h}) as the build rendered it
 * through picocli ({@link #main}, run at process-classes into the jar), printed without building
 * the command line: picocli's model of the commands, made by reflection from classes the JVM
 * cannot archive, is most of that process's CPU (tooling/launcher/DESIGN.md, "Start-up").
 * Rendered twice, plain and in colour, and chosen as picocli would choose; a JVM given any
 * {@code picocli.*} property (another width, forced colours, tracing) gets picocli itself.
 */
final class PrintedUsage {
  static final String PLAIN = "usage.txt";
  static final String COLOUR = "usage-ansi.txt";

  private PrintedUsage() {}

  /**
   * Prints the usage when {@code args} ask only for it and the jar holds the rendered text.
   *
   * @return whether it printed; false leaves the arguments to picocli
   */
  static boolean print(String[] args) {
    if (!asksForUsage(args)) {
      return false;
    }
    for (String property : System.getProperties().stringPropertyNames()) {
      if (property.startsWith("picocli.")) {
        return false;
      }
    }
    String text = rendered(Ansi.AUTO.enabled());
    if (text == null) {
      return false;
    }
    // The charset picocli's own writer uses for standard output.
    String encoding = System.getProperty("sun.stdout.encoding");
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false,
        encoding == null ? Charset.defaultCharset() : Charset.forName(encoding));
    out.print(text);
    out.flush();
    return true;
  }

  /** Whether {@code args} ask for the top-level usage and nothing else. */
  static boolean asksForUsage(String[] args) {
    return args.length == 0 || args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"));
  }

  /** The text the build rendered, in colour or plain; null when the class path holds none. */
  static String rendered(boolean colour) {
    try (InputStream in = PrintedUsage.class.getResourceAsStream(colour ? COLOUR : PLAIN)) {
      return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return null;
    }
  }

  /** What picocli prints for {@code --help} with these colours, through the command line a process builds. */
  static String render(Ansi ansi) {
    CommandLine cli = Launcher.commandLine(InputStream.nullInputStream(), Subcommands.namedIn("--help"));
    cli.setColorScheme(CommandLine.Help.defaultColorScheme(ansi));
    StringWriter out = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.execute("--help");
    return out.toString();
  }

  /** The build's step: renders both texts into the directory {@code args[0]} (the jar's package there). */
  public static void main(String[] args) {
    Path dir = Path.of(args[0], PrintedUsage.class.getPackageName().split("\\."));
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(PLAIN), render(Ansi.OFF), StandardCharsets.UTF_8);
      Files.writeString(dir.resolve(COLOUR), render(Ansi.ON), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
