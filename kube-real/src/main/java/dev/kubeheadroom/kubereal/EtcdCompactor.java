package dev.kubeheadroom.kubereal;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Compacts the test control plane's etcd through its JSON gateway ({@code /v3/kv/compaction},
 * on by default on the client URL). kube-api-test keeps etcd's port to itself, so it is read from
 * the etcd process this JVM started ({@code --listen-client-urls}).
 */
record EtcdCompactor(URI clientUrl) {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  static EtcdCompactor find(ControlPlaneBinaries binaries) {
    String etcd = binaries.dir().resolve("etcd").toString();
    return ProcessHandle.current().descendants()
        .filter(p -> p.info().command().map(etcd::equals).orElse(false))
        .map(p -> p.info().arguments().map(List::of).orElse(List.of()))
        .map(args -> args.indexOf("--listen-client-urls") < 0 ? null
            : args.get(args.indexOf("--listen-client-urls") + 1).split(",")[0])
        .filter(url -> url != null)
        .findFirst()
        .map(url -> new EtcdCompactor(URI.create(url)))
        .orElseThrow(() -> new IllegalStateException("no etcd process of " + etcd + " under this JVM"));
  }

  /**
   * Compacts at the current revision (physically, so it is done when this returns); nothing to do
   * when nothing was written since the last compaction.
   */
  long compactNow() {
    String key = Base64.getEncoder().encodeToString("compact_rev_key".getBytes(StandardCharsets.UTF_8));
    long revision = post("/v3/kv/range", "{\"key\":\"" + key + "\"}", false).path("header").path("revision").asLong();
    post("/v3/kv/compaction", "{\"revision\":\"" + revision + "\",\"physical\":true}", true);
    return revision;
  }

  private JsonNode post(String path, String json, boolean compaction) {
    try {
      HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(clientUrl.resolve(path))
          .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
      if (compaction && response.body().contains("required revision has been compacted")) {
        return Serialization.jsonMapper().createObjectNode();
      }
      if (response.statusCode() != 200) {
        throw new IllegalStateException("etcd " + path + " answered " + response.statusCode() + ": " + response.body());
      }
      return Serialization.jsonMapper().readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted calling etcd " + path, e);
    }
  }
}
