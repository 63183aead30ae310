package dev.kubeheadroom.projection;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The field names the lean bindings read ({@link ProjectedByteLine}, and {@link ProjectedFields}'
 * table from bytes or, by {@link #named}, from Jackson's tokens), all shorter than 16 bytes: a
 * name is found from its bytes as two 8-byte words and its length (which the scan for its end has
 * just read), by one lookup in a small hash table and two comparisons; every other name is
 * {@link #OTHER}.
 */
enum FieldName {
  AT("at"), TYPE("type"), OBJECT("object"), API_VERSION("apiVersion"), KIND("kind"),
  METADATA("metadata"), SPEC("spec"), STATUS("status"),
  NAME("name"), NAMESPACE("namespace"), UID("uid"), RESOURCE_VERSION("resourceVersion"), GENERATION("generation"),
  LABELS("labels"), ANNOTATIONS("annotations"), OWNER_REFERENCES("ownerReferences"), CONTROLLER("controller"),
  NODE_NAME("nodeName"), CONTAINERS("containers"), INIT_CONTAINERS("initContainers"), RESOURCES("resources"),
  RESTART_POLICY("restartPolicy"), RESIZE_POLICY("resizePolicy"), REQUESTS("requests"), LIMITS("limits"),
  RESOURCE_NAME("resourceName"), PHASE("phase"), QOS_CLASS("qosClass"), RESIZE("resize"), CONDITIONS("conditions"),
  REASON("reason"), ALLOCATABLE("allocatable"), NODE_INFO("nodeInfo"), OPERATING_SYSTEM("operatingSystem"),
  /** Any name the binding does not read. */
  OTHER("");

  /** Every name here is shorter: its closing quote is within two words of its start. */
  static final int MAX_LENGTH = 16;
  private static final int BITS = 7;
  private static final FieldName[] TABLE = new FieldName[1 << BITS];

  static {
    for (FieldName f : values()) {
      if (f != OTHER) {
        int i = slot(f.low, f.high, f.length);
        while (TABLE[i] != null) {
          i = (i + 1) & (TABLE.length - 1);
        }
        TABLE[i] = f;
      }
    }
  }

  /** The name's bytes 0–7 and 8–15 as little-endian words, zero past its end. */
  private final long low;
  private final long high;
  private final int length;
  private final String text;

  FieldName(String name) {
    this.text = name;
    byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
    if (bytes.length >= MAX_LENGTH) {
      throw new IllegalArgumentException("a field name of " + MAX_LENGTH + " bytes or more: " + name);
    }
    long[] words = new long[2];
    for (int i = 0; i < bytes.length; i++) {
      words[i / 8] |= (bytes[i] & 0xffL) << (8 * (i % 8));
    }
    low = words[0];
    high = words[1];
    length = bytes.length;
  }

  private static final Map<String, FieldName> BY_NAME = new HashMap<>();

  static {
    for (FieldName f : values()) {
      if (f != OTHER) {
        BY_NAME.put(f.text, f);
      }
    }
  }

  /** The field named {@code name}; {@link #OTHER} for one the binding does not read. */
  static FieldName named(String name) {
    return BY_NAME.getOrDefault(name, OTHER);
  }

  /** The name of {@code length} bytes whose words are {@code low} and {@code high} (zero past its end). */
  static FieldName of(long low, long high, int length) {
    for (int i = slot(low, high, length); ; i = (i + 1) & (TABLE.length - 1)) {
      FieldName f = TABLE[i];
      if (f == null) {
        return OTHER;
      }
      if (f.low == low && f.high == high && f.length == length) {
        return f;
      }
    }
  }

  private static int slot(long low, long high, int length) {
    long h = (low * 0x9E3779B97F4A7C15L + high) * 0xC2B2AE3D27D4EB4FL + length;
    return (int) (h >>> (64 - BITS));
  }
}
