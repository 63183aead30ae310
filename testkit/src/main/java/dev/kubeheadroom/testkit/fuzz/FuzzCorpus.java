package dev.kubeheadroom.testkit.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A fuzzer's corpus: the files of one directory under {@code src/test/resources/fuzz} of the
 * module that runs it (its seeds, {@code seed-*}, and every finding kept as a regression input,
 * {@code finding-*}), in name order.
 */
public final class FuzzCorpus {
  private FuzzCorpus() {}

  /** The files of {@code /fuzz/<kind>} on {@code anchor}'s class path. */
  public static List<Path> files(Class<?> anchor, String kind) {
    return under(anchor, "/fuzz/" + kind);
  }

  /** The files of a resource directory on {@code anchor}'s class path: a module's fixtures as seeds. */
  public static List<Path> under(Class<?> anchor, String resourceDir) {
    URL dir = anchor.getResource(resourceDir);
    if (dir == null) {
      throw new IllegalArgumentException("no directory " + resourceDir + " on the test class path");
    }
    try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
      return files.sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The contents of every file of the corpus, in name order: a fuzzer's seeds. */
  public static List<byte[]> contents(Class<?> anchor, String kind) {
    return files(anchor, kind).stream().map(FuzzCorpus::bytes).toList();
  }

  public static byte[] bytes(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
