package dev.kubeheadroom.installed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.testkit.Tar;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * An OCI image layout tarball (what {@code jib:buildTar} writes with format OCI) read without any
 * container tooling: {@code index.json} → manifest → config and layers, each layer a gzipped tar
 * whose regular files are read into memory (the image is small enough for a test), with the mode
 * of every file and directory.
 */
record OciImage(JsonNode config, Map<String, byte[]> files, Map<String, Integer> modes) {
  private static final ObjectMapper JSON = new ObjectMapper();

  static OciImage read(Path tarball) throws IOException {
    Map<String, byte[]> blobs;
    try (InputStream in = Files.newInputStream(tarball)) {
      blobs = Tar.entries(in);
    }
    JsonNode index = JSON.readTree(blobs.get("index.json"));
    JsonNode manifest = JSON.readTree(blob(blobs, index.path("manifests").get(0).path("digest").asText()));
    JsonNode config = JSON.readTree(blob(blobs, manifest.path("config").path("digest").asText()));
    Map<String, byte[]> files = new LinkedHashMap<>();
    Map<String, Integer> modes = new LinkedHashMap<>();
    for (JsonNode layer : manifest.path("layers")) {
      try (InputStream gz = new GZIPInputStream(new ByteArrayInputStream(blob(blobs, layer.path("digest").asText())))) {
        files.putAll(Tar.entries(gz, modes));
      }
    }
    return new OciImage(config, files, modes);
  }

  /** The image's Entrypoint. */
  List<String> entrypoint() {
    List<String> entrypoint = new ArrayList<>();
    config.path("config").path("Entrypoint").forEach(arg -> entrypoint.add(arg.asText()));
    return entrypoint;
  }

  /**
   * Writes the image's filesystem under {@code root} as a container runtime would (directories
   * and regular files with their modes, owned by whoever runs this), for a chroot into it.
   */
  void unpack(Path root) throws IOException {
    for (Map.Entry<String, byte[]> file : files.entrySet()) {
      Path path = root.resolve(file.getKey());
      Files.createDirectories(path.getParent());
      Files.write(path, file.getValue());
    }
    for (Map.Entry<String, Integer> mode : modes.entrySet()) {
      Path path = root.resolve(mode.getKey());
      Files.createDirectories(files.containsKey(mode.getKey()) ? path.getParent() : path);
      Files.setPosixFilePermissions(path, permissions(mode.getValue()));
    }
    // a directory the layers only imply (and the root) is 755, as a runtime makes it, whatever the umask
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path dir : paths.filter(Files::isDirectory).toList()) {
        if (!modes.containsKey(root.relativize(dir).toString())) {
          Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
      }
    }
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ ... OTHERS_EXECUTE, high bit first
    for (int i = 0; i < bits.length; i++) {
      if ((mode & (1 << (bits.length - 1 - i))) != 0) {
        permissions.add(bits[i]);
      }
    }
    return permissions;
  }

  String text(String path) {
    byte[] bytes = files.get(path);
    if (bytes == null) {
      throw new AssertionError("no " + path + " in the image");
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static byte[] blob(Map<String, byte[]> blobs, String digest) {
    byte[] blob = blobs.get("blobs/" + digest.replace(':', '/'));
    if (blob == null) {
      throw new AssertionError("no blob " + digest);
    }
    return blob;
  }
}
