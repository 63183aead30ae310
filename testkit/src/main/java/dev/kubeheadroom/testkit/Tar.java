package dev.kubeheadroom.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal ustar/PAX reader: regular files by path (leading "/" and "./" dropped), and the mode
 * of each file and directory into {@code modes}.
 */
public final class Tar {
  private Tar() {}

  public static Map<String, byte[]> entries(InputStream in) throws IOException {
    return entries(in, new HashMap<>());
  }

  public static Map<String, byte[]> entries(InputStream in, Map<String, Integer> modes) throws IOException {
    Map<String, byte[]> entries = new HashMap<>();
    String paxPath = null;
    while (true) {
      byte[] header = in.readNBytes(512);
      if (header.length < 512 || header[0] == 0) {
        return entries;
      }
      String name = field(header, 0, 100);
      String prefix = field(header, 345, 155);
      long size = Long.parseLong(field(header, 124, 12).trim().isEmpty() ? "0" : field(header, 124, 12).trim(), 8);
      char type = (char) header[156];
      byte[] data = in.readNBytes((int) size);
      in.skipNBytes((512 - size % 512) % 512);
      if (type == 'x') {
        paxPath = paxValue(new String(data, StandardCharsets.UTF_8), "path");
        continue;
      }
      String path = (paxPath != null ? paxPath : prefix.isEmpty() ? name : prefix + "/" + name)
          .replaceFirst("^\\./", "").replaceFirst("^/", "").replaceFirst("/$", "");
      paxPath = null;
      if (type == '0' || type == 0) {
        entries.put(path, data);
      }
      if ((type == '0' || type == 0 || type == '5') && !path.isEmpty()) {
        modes.put(path, Integer.parseInt(field(header, 100, 8).trim(), 8) & 0777);
      }
    }
  }

  private static String field(byte[] header, int offset, int length) {
    int end = offset;
    while (end < offset + length && header[end] != 0) {
      end++;
    }
    return new String(header, offset, end - offset, StandardCharsets.UTF_8);
  }

  private static String paxValue(String records, String key) {
    for (String record : List.of(records.split("\n"))) {
      int space = record.indexOf(' ');
      if (space > 0 && record.startsWith(key + "=", space + 1)) {
        return record.substring(space + 2 + key.length());
      }
    }
    return null;
  }
}
