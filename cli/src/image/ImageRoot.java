import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * What the operator image needs beyond the application and cannot take from a base image (the
 * build reaches no container registry): a root-filesystem tree that Jib adds at {@code /}
 * (extraDirectories in cli/pom.xml).
 *
 * <ul>
 *   <li>{@code /opt/java}: a runtime jlinked from the build's own JDK with the modules {@code headroom} needs;
 *   <li>{@code /lib/x86_64-linux-gnu/*}, {@code /lib64/ld-linux-x86-64.so.2}: the C libraries that runtime and
 *       the jars' JNI libraries (RocksDB, snappy, zstd, lz4) link against, as {@code ldd} resolves them on the
 *       build machine: the glibc the JDK itself was built for;
 *   <li>{@code /etc/passwd}, {@code /etc/group}: root and the non-root user 10001 the image runs as;
 *   <li>{@code /tmp}: {@code java.io.tmpdir} (RocksDB extracts its library there) when nothing is mounted.
 * </ul>
 *
 * <p>Run by module cli's build with the build's JDK, as a source file (no build step of its own):
 * {@code java ImageRoot.java OUT MODULES CLASSPATH}. On a machine that cannot build a Linux x86_64
 * runtime (another OS or architecture, a JDK without jmods) it writes only {@code /etc} and
 * {@code /tmp} and says why in {@code OUT.skipped}: the image then does not run and
 * OperatorImageTest's run test skips with that reason.
 */
public final class ImageRoot {
  /** Natives that only a desktop uses (X11, fonts, sound, images): java.beans comes in java.desktop. */
  private static final List<String> DESKTOP_NATIVES = List.of("libawt_xawt.so", "libsplashscreen.so",
      "libjsound.so", "libjawt.so", "libfontmanager.so", "liblcms.so", "libjavajpeg.so");
  private static final String PASSWD = """
      root:x:0:0:root:/root:/sbin/nologin
      headroom:x:10001:10001:headroom:/nonexistent:/sbin/nologin
      """;
  private static final String GROUP = """
      root:x:0:
      headroom:x:10001:
      """;

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: java ImageRoot.java OUT MODULES CLASSPATH");
    }
    Path out = Path.of(args[0]).toAbsolutePath();
    String modules = args[1].replaceAll("\\s+", "");
    List<Path> jars = Stream.of(args[2].split(java.io.File.pathSeparator))
        .filter(p -> p.endsWith(".jar")).map(Path::of).toList();
    Path key = out.resolveSibling(out.getFileName() + ".key");
    Path skipped = out.resolveSibling(out.getFileName() + ".skipped");
    String wanted = String.join("\n", System.getProperty("java.home"), System.getProperty("java.vm.version"),
        modules, jarsKey(jars), PASSWD, GROUP, DESKTOP_NATIVES.toString());
    if (Files.isRegularFile(out.resolve("opt/java/release")) && Files.isRegularFile(key)
        && Files.readString(key).equals(wanted)) {
      System.out.println("[image-root] " + out + " is up to date");
      return;
    }
    deleteTree(out);
    Files.deleteIfExists(key);
    Files.deleteIfExists(skipped);
    Files.createDirectories(out.resolve("etc"));
    Files.createDirectories(out.resolve("tmp"));
    Files.writeString(out.resolve("etc/passwd"), PASSWD);
    Files.writeString(out.resolve("etc/group"), GROUP);

    String unsupported = unsupported();
    if (unsupported != null) {
      Files.writeString(skipped, unsupported + "\n");
      System.err.println("[image-root] WARNING: the image gets no Java runtime and will not run: " + unsupported);
      return;
    }
    Path java = out.resolve("opt/java");
    jlink(modules, java);
    Set<Path> libraries = new TreeSet<>();
    try (Stream<Path> files = Files.walk(java)) {
      for (Path file : files.filter(ImageRoot::isElf).toList()) {
        libraries.addAll(ldd(file, java));
      }
    }
    Path natives = Files.createTempDirectory("image-root-jni");
    try {
      for (Path library : jniLibraries(jars, natives)) {
        libraries.addAll(ldd(library, java));
      }
    } finally {
      deleteTree(natives);
    }
    for (Path library : libraries) {
      Path target = out.resolve(library.toString().substring(1));
      Files.createDirectories(target.getParent());
      Files.copy(library, target, StandardCopyOption.REPLACE_EXISTING); // follows the symlink: a file, not a link
    }
    System.out.println("[image-root] " + out + ": jlinked " + modules + "; C libraries " + libraries);
    Files.writeString(key, wanted);
  }

  /** Why this machine cannot build the runtime, or null when it can. */
  private static String unsupported() {
    String os = System.getProperty("os.name");
    String arch = System.getProperty("os.arch");
    if (!os.equals("Linux") || !arch.equals("amd64")) {
      return "built on " + os + "/" + arch + ", and the image is Linux x86_64 (its runtime is the build's JDK)";
    }
    Path jmods = Path.of(System.getProperty("java.home"), "jmods", "java.base.jmod");
    if (!Files.isRegularFile(jmods)) {
      return "the build's JDK has no " + jmods + " for jlink (a JRE, or a JDK whose jmods are a separate package)";
    }
    return null;
  }

  private static void jlink(String modules, Path output) {
    ToolProvider jlink = ToolProvider.findFirst("jlink").orElseThrow(() -> new IllegalStateException("no jlink in this JDK"));
    List<String> args = new ArrayList<>(List.of("--add-modules", modules, "--strip-debug", "--no-header-files",
        "--no-man-pages", "--output", output.toString()));
    // one list: jlink keeps only the last --exclude-files
    args.add("--exclude-files=" + String.join(",", DESKTOP_NATIVES.stream().map(l -> "**/" + l).toList()));
    int code = jlink.run(System.out, System.err, args.toArray(String[]::new));
    if (code != 0) {
      throw new IllegalStateException("jlink " + args + " failed with exit code " + code);
    }
  }

  /**
   * The Linux x86_64 glibc JNI libraries the jars carry (they extract them at run time), copied
   * out so {@code ldd} can read them.
   */
  private static List<Path> jniLibraries(List<Path> jars, Path dir) throws IOException {
    List<Path> libraries = new ArrayList<>();
    for (Path jar : jars) {
      try (ZipFile zip = new ZipFile(jar.toFile())) {
        for (ZipEntry entry : zip.stream().filter(e -> isLinuxX64(e.getName())).toList()) {
          Path copy = dir.resolve(libraries.size() + "-" + Path.of(entry.getName()).getFileName());
          try (InputStream in = zip.getInputStream(entry)) {
            Files.copy(in, copy);
          }
          libraries.add(copy);
        }
      }
    }
    System.out.println("[image-root] JNI libraries in the jars: " + libraries.size());
    return libraries;
  }

  private static boolean isLinuxX64(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.endsWith(".so") && n.contains("linux") && !n.contains("musl")
        && (n.contains("x86_64") || n.contains("amd64") || n.contains("linux64"));
  }

  /** The libraries outside the runtime that {@code file} loads, as the dynamic linker finds them. */
  private static Set<Path> ldd(Path file, Path java) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder("ldd", file.toString()).redirectErrorStream(true);
    pb.environment().put("LD_LIBRARY_PATH", java.resolve("lib") + ":" + java.resolve("lib/server"));
    Process ldd = pb.start();
    String output = new String(ldd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (ldd.waitFor() != 0) {
      throw new IllegalStateException("ldd " + file + " failed: " + output);
    }
    Set<Path> libraries = new TreeSet<>();
    for (String line : output.split("\n")) {
      String l = line.strip();
      if (l.contains("not found")) {
        throw new IllegalStateException(file + " needs a library this machine lacks: " + l);
      }
      // "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" or "/lib64/ld-linux-x86-64.so.2 (0x...)"
      int arrow = l.indexOf("=> ");
      String path = (arrow >= 0 ? l.substring(arrow + 3) : l).replaceFirst("\\s*\\(0x[0-9a-f]+\\)$", "");
      if (path.startsWith("/") && !Path.of(path).startsWith(java)) {
        libraries.add(Path.of(path));
      }
    }
    return libraries;
  }

  private static boolean isElf(Path file) {
    if (!Files.isRegularFile(file)) {
      return false;
    }
    try (InputStream in = Files.newInputStream(file)) {
      byte[] magic = in.readNBytes(4);
      return magic.length == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String jarsKey(List<Path> jars) throws IOException {
    StringBuilder key = new StringBuilder();
    for (Path jar : jars) {
      key.append(jar.getFileName()).append(':').append(Files.size(jar)).append(' ');
    }
    return key.toString();
  }

  private static void deleteTree(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> paths = Files.walk(dir)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
  }
}
