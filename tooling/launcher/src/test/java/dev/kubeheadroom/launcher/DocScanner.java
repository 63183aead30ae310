package dev.kubeheadroom.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads the {@code headroom} command lines and expected outputs that markdown docs show, for
 * {@link DocsCommandsTest}.
 *
 * <p><b>What counts as a command.</b> Lines of fenced code blocks tagged {@code sh}, {@code bash},
 * {@code shell} or {@code console} (backslash continuations joined, a leading {@code $ } and a
 * trailing {@code # comment} dropped) whose first word is {@code ./headroom} or {@code headroom},
 * or that start {@code kubectl headroom}. Other lines ({@code kubectl get …}, {@code helm},
 * {@code mvn}, {@code export}) are not Headroom's and are ignored. A headroom line may read stdin
 * from a file ({@code < FILE}); pipes and other redirections are refused, to keep doc lines
 * runnable as written.
 *
 * <p><b>Markers.</b> {@code <!-- not-run: reason -->} right before a block (blank lines allowed)
 * means its commands are not executed; they are still parsed, so a subcommand or flag that does
 * not exist fails the test, and they are counted and listed. {@code <!-- expected-output -->}
 * before a {@code text} block makes that block the exact expected stdout of the file's previous
 * command.
 */
final class DocScanner {
  static final Set<String> SHELL_TAGS = Set.of("sh", "bash", "shell", "console");

  private static final Pattern FENCE = Pattern.compile("^\\s*```\\s*([\\w-]*).*$");
  private static final Pattern NOT_RUN = Pattern.compile("<!--\\s*not-run:\\s*(.*?)\\s*-->");
  private static final Pattern EXPECTED = Pattern.compile("<!--\\s*expected-output\\s*-->");

  /** One command line a doc shows. */
  record DocCommand(String where, String text, List<String> args, String stdinFile, boolean viaKubectl,
      String notRunReason) {}

  /** A doc's expected stdout for the command before it. */
  record Expected(DocCommand command, String output) {}

  private final Path root;
  private final List<DocCommand> commands = new ArrayList<>();
  private final List<Expected> expectations = new ArrayList<>();

  /** Docs are named relative to {@code root} (the repository root) in every {@code where}. */
  DocScanner(Path root) {
    this.root = root;
  }

  /** The commands of every doc scanned so far, in order. */
  List<DocCommand> commands() {
    return List.copyOf(commands);
  }

  /** The expected outputs of every doc scanned so far, in order. */
  List<Expected> expectations() {
    return List.copyOf(expectations);
  }

  void scan(Path doc) throws IOException {
    List<String> lines = Files.readAllLines(doc);
    String name = root.relativize(doc).toString();
    String pendingNotRun = null;
    boolean pendingExpected = false;
    DocCommand lastCommand = null;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      Matcher notRun = NOT_RUN.matcher(line);
      if (notRun.find()) {
        pendingNotRun = notRun.group(1);
        continue;
      }
      if (EXPECTED.matcher(line).find()) {
        pendingExpected = true;
        continue;
      }
      Matcher fence = FENCE.matcher(line);
      if (!fence.matches()) {
        if (!line.isBlank()) {
          pendingNotRun = null; // a marker applies only to the block right after it
          pendingExpected = false;
        }
        continue;
      }
      String tag = fence.group(1);
      int start = i + 1;
      int end = start;
      while (end < lines.size() && !lines.get(end).strip().startsWith("```")) {
        end++;
      }
      List<String> body = lines.subList(start, Math.min(end, lines.size()));
      if (pendingExpected) {
        assertThat(lastCommand).as("%s:%d: expected-output with no command before it", name, i + 1).isNotNull();
        expectations.add(new Expected(lastCommand, String.join("\n", body)));
      } else if (SHELL_TAGS.contains(tag)) {
        for (DocCommand c : commandsIn(name, start, body, pendingNotRun)) {
          commands.add(c);
          lastCommand = c;
        }
      }
      pendingNotRun = null;
      pendingExpected = false;
      i = end;
    }
  }

  private static List<DocCommand> commandsIn(String doc, int firstLine, List<String> body, String notRun) {
    List<DocCommand> found = new ArrayList<>();
    StringBuilder logical = new StringBuilder();
    int lineOfLogical = firstLine;
    for (int k = 0; k < body.size(); k++) {
      String raw = body.get(k);
      if (logical.length() == 0) {
        lineOfLogical = firstLine + k + 1;
      }
      String stripped = raw.stripTrailing();
      if (stripped.endsWith("\\")) {
        logical.append(stripped, 0, stripped.length() - 1).append(' ');
        continue;
      }
      logical.append(stripped);
      String text = stripComment(logical.toString()).strip();
      logical.setLength(0);
      if (text.startsWith("$ ")) {
        text = text.substring(2).strip();
      }
      List<String> words = words(text);
      boolean viaKubectl = words.size() >= 2 && words.get(0).equals("kubectl") && words.get(1).equals("headroom");
      boolean direct = !words.isEmpty() && (words.get(0).equals("headroom") || words.get(0).equals("./headroom"));
      if (!viaKubectl && !direct) {
        continue;
      }
      String where = doc + ":" + lineOfLogical;
      List<String> args = new ArrayList<>(words.subList(viaKubectl ? 2 : 1, words.size()));
      String stdin = null;
      int redirect = args.indexOf("<");
      if (redirect >= 0) {
        assertThat(redirect).as("%s: `<` must be followed by one file, last", where).isEqualTo(args.size() - 2);
        stdin = args.get(redirect + 1);
        args = new ArrayList<>(args.subList(0, redirect));
      }
      for (String w : args) {
        assertThat(Set.of("|", ">", ">>", "&&", "||", ";", "&")).as("%s: keep `%s` a plain command", where, text)
            .doesNotContain(w);
      }
      found.add(new DocCommand(where, text, List.copyOf(args), stdin, viaKubectl, notRun));
    }
    return found;
  }

  /** Drops a trailing {@code # comment} (a {@code #} after whitespace, outside quotes). */
  static String stripComment(String line) {
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char ch = line.charAt(i);
      if (quote != 0) {
        if (ch == quote) {
          quote = 0;
        }
      } else if (ch == '\'' || ch == '"') {
        quote = ch;
      } else if (ch == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
        return line.substring(0, i);
      }
    }
    return line;
  }

  /** Shell words: whitespace-separated, single and double quotes removed. */
  static List<String> words(String text) {
    List<String> words = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (char ch : text.toCharArray()) {
      if (quote != 0) {
        if (ch == quote) {
          quote = 0;
        } else {
          w.append(ch);
        }
      } else if (ch == '\'' || ch == '"') {
        quote = ch;
        inWord = true;
      } else if (Character.isWhitespace(ch)) {
        if (inWord) {
          words.add(w.toString());
          w.setLength(0);
          inWord = false;
        }
      } else {
        w.append(ch);
        inWord = true;
      }
    }
    if (inWord) {
      words.add(w.toString());
    }
    return words;
  }

  static String subcommand(List<String> args) {
    return args.stream().filter(a -> !a.startsWith("-")).findFirst().orElse("");
  }

  /** Output as compared with a doc's expected block: trailing spaces and outer blank lines dropped. */
  static String normalize(String text) {
    return text.lines().map(String::stripTrailing).collect(Collectors.joining("\n")).strip();
  }
}
