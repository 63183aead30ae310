package dev.kubeheadroom.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.policy.PodInput;
import dev.kubeheadroom.policy.PolicyConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses and validates the {@code headroom policy} input (docs/design/cli-contract.md): one node as a JSON
 * object. Every mistake becomes a {@link UserError} whose message names the offending field, e.g.
 * {@code pods[2].requestMilli: must be a non-negative integer}. Validation is by hand, not by
 * data binding, so the messages are ours and no Jackson exception reaches the user.
 */
final class PolicyRequestReader {

  /** A billion cores: far beyond any node, small enough that no sum of them overflows a long. */
  static final long MAX_MILLI = 1_000_000_000_000L;

  private static final Set<String> ROOT_FIELDS = Set.of("allocatableMilli", "config", "pods");
  private static final Set<String> POD_FIELDS =
      Set.of("key", "requestMilli", "currentLimitMilli", "managed", "userCapMilli");
  private static final Set<String> CONFIG_FIELDS =
      Set.of("minBurstFloorMilli", "maxMultiplier", "deadbandGrow", "deadbandShrink", "quantumMilli");

  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  /** One node's policy input. */
  record PolicyRequest(long allocatableMilli, List<PodInput> pods, PolicyConfig config) {}

  private PolicyRequestReader() {}

  /** Parses one node from JSON text. */
  static PolicyRequest read(byte[] json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new UserError("input: not valid JSON: " + describe(e));
    } catch (IOException e) {
      throw new UserError("input: cannot read: " + oneLine(e.getMessage()));
    }
    if (root == null || root.isMissingNode()) {
      throw new UserError("input: empty; expected one node as a JSON object");
    }
    if (!root.isObject()) {
      throw new UserError("input: must be a JSON object");
    }
    rejectUnknownFields(root, "", ROOT_FIELDS);
    long allocatable = milli(required(root, "allocatableMilli", ""), "allocatableMilli");
    PolicyConfig config = config(root.get("config"));
    List<PodInput> pods = pods(required(root, "pods", ""));
    return new PolicyRequest(allocatable, pods, config);
  }

  private static PolicyConfig config(JsonNode node) {
    if (node == null) {
      return PolicyConfig.DEFAULTS;
    }
    if (!node.isObject()) {
      throw new UserError("config: must be an object");
    }
    rejectUnknownFields(node, "config.", CONFIG_FIELDS);
    PolicyConfig d = PolicyConfig.DEFAULTS;
    return new PolicyConfig(
        optionalMilli(node, "minBurstFloorMilli", d.minBurstFloorMilli()),
        optionalNumber(node, "maxMultiplier", d.maxMultiplier()),
        optionalNumber(node, "deadbandGrow", d.deadbandGrow()),
        optionalNumber(node, "deadbandShrink", d.deadbandShrink()),
        optionalMilli(node, "quantumMilli", d.quantumMilli()));
  }

  private static List<PodInput> pods(JsonNode node) {
    if (!node.isArray()) {
      throw new UserError("pods: must be an array");
    }
    List<PodInput> pods = new ArrayList<>(node.size());
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < node.size(); i++) {
      String at = "pods[" + i + "]";
      JsonNode pod = node.get(i);
      if (!pod.isObject()) {
        throw new UserError(at + ": must be an object");
      }
      rejectUnknownFields(pod, at + ".", POD_FIELDS);
      String key = key(required(pod, "key", at + "."), at + ".key");
      Integer previous = seen.putIfAbsent(key, i);
      if (previous != null) {
        throw new UserError(at + ".key: duplicate of pods[" + previous + "].key");
      }
      long request = milli(required(pod, "requestMilli", at + "."), at + ".requestMilli");
      long current = milli(required(pod, "currentLimitMilli", at + "."), at + ".currentLimitMilli");
      boolean managed = bool(required(pod, "managed", at + "."), at + ".managed");
      long userCap = milli(required(pod, "userCapMilli", at + "."), at + ".userCapMilli");
      pods.add(new PodInput(key, request, current, managed, userCap));
    }
    return pods;
  }

  // ---------------------------------------------------------------- field readers

  private static JsonNode required(JsonNode object, String field, String prefix) {
    JsonNode value = object.get(field);
    if (value == null) {
      throw new UserError(prefix + field + ": required");
    }
    return value;
  }

  private static void rejectUnknownFields(JsonNode object, String prefix, Set<String> known) {
    for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!known.contains(name)) {
        throw new UserError(prefix + oneLine(name) + ": unknown field");
      }
    }
  }

  private static long milli(JsonNode value, String path) {
    if (!value.isIntegralNumber() || value.bigIntegerValue().signum() < 0) {
      throw new UserError(path + ": must be a non-negative integer");
    }
    if (!value.canConvertToLong() || value.longValue() > MAX_MILLI) {
      throw new UserError(path + ": must be at most " + MAX_MILLI);
    }
    return value.longValue();
  }

  private static long optionalMilli(JsonNode object, String field, long defaultValue) {
    JsonNode value = object.get(field);
    return value == null ? defaultValue : milli(value, "config." + field);
  }

  private static double optionalNumber(JsonNode object, String field, double defaultValue) {
    JsonNode value = object.get(field);
    if (value == null) {
      return defaultValue;
    }
    String path = "config." + field;
    if (!value.isNumber() || !Double.isFinite(value.doubleValue()) || value.doubleValue() < 0) {
      throw new UserError(path + ": must be a non-negative number");
    }
    return value.doubleValue();
  }

  private static String key(JsonNode value, String path) {
    if (!value.isTextual() || value.textValue().isEmpty()) {
      throw new UserError(path + ": must be a non-empty string");
    }
    return value.textValue();
  }

  private static boolean bool(JsonNode value, String path) {
    if (!value.isBoolean()) {
      throw new UserError(path + ": must be true or false");
    }
    return value.booleanValue();
  }

  // ---------------------------------------------------------------- messages

  private static String describe(JsonProcessingException e) {
    String message = oneLine(e.getOriginalMessage());
    JsonLocation at = e.getLocation();
    if (at == null || at.getLineNr() < 0) {
      return message;
    }
    return message + " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
  }

  /** First line only: the error is reported on exactly one line. */
  private static String oneLine(String text) {
    if (text == null) {
      return "unknown error";
    }
    int end = text.indexOf('\n');
    String line = end < 0 ? text : text.substring(0, end);
    return line.replace('\r', ' ');
  }
}
