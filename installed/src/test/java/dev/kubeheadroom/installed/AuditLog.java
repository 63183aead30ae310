package dev.kubeheadroom.installed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A real kube-apiserver's JSON audit log (level Metadata, one event per line) read as
 * {@link ApiCall}s: the server's own record of every request, who made it and what it answered.
 * One call per audit ID: a watch's {@code ResponseStarted} event (it may never complete), any
 * other request's {@code ResponseComplete}; {@code Panic} counts as a 500.
 */
final class AuditLog {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final List<ApiCall> calls = new ArrayList<>();
  private final Set<String> seen = new HashSet<>();
  private long offset;

  AuditLog(Path file) {
    this.file = file;
  }

  /** Every call logged so far (reading only what was appended since the last look). */
  synchronized List<ApiCall> calls() {
    try (FileChannel channel = FileChannel.open(file)) {
      long size = channel.size();
      if (size > offset) {
        ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(size - offset));
        while (bytes.hasRemaining() && channel.read(bytes, offset + bytes.position()) > 0) {
          // read to the size seen
        }
        String text = new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8);
        int complete = text.lastIndexOf('\n') + 1; // a half-written last line is read next time
        text.substring(0, complete).lines().forEach(this::add);
        offset += text.substring(0, complete).getBytes(StandardCharsets.UTF_8).length;
      }
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the audit log " + file, e);
    }
    return List.copyOf(calls);
  }

  private void add(String line) {
    if (line.isBlank()) {
      return;
    }
    JsonNode event;
    try {
      event = JSON.readTree(line);
    } catch (IOException e) {
      throw new UncheckedIOException("not an audit event in " + file + ": " + line, e);
    }
    String stage = event.path("stage").asText();
    String verb = event.path("verb").asText();
    boolean counted = stage.equals("ResponseComplete") || stage.equals("Panic")
        || (stage.equals("ResponseStarted") && verb.equals("watch"));
    if (counted && seen.add(event.path("auditID").asText())) {
      calls.add(call(event, verb, stage));
    }
  }

  private static ApiCall call(JsonNode event, String verb, String stage) {
    JsonNode ref = event.path("objectRef");
    int code = stage.equals("Panic") ? 500 : event.path("responseStatus").path("code").asInt(200);
    String subresource = ref.path("subresource").asText("");
    // The audit log names a created object (from the response); the authorizer saw no name in a
    // POST to the collection, so the grants table, which is the authorizer's view, must not either.
    String name = verb.equals("create") && subresource.isEmpty() ? "" : ref.path("name").asText("");
    return new ApiCall(Instant.parse(event.path("stageTimestamp").asText()),
        event.path("user").path("username").asText(), verb, ref.has("resource"), ref.path("apiGroup").asText(""),
        ref.path("resource").asText(""), subresource, ref.path("namespace").asText(""), name, code);
  }
}
