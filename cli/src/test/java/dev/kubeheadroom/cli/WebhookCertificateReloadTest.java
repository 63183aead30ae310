package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.ops.TlsMaterial;
import dev.kubeheadroom.schemas.ClusterState;
import dev.kubeheadroom.webhook.AdmissionHandler;
import dev.kubeheadroom.webhook.WebhookMetrics;
import dev.kubeheadroom.webhook.WebhookServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The webhook as {@code headroom webhook --webhook-cert-dir} serves it picks up a certificate
 * cert-manager renewed, the way the kubelet updates a mounted Secret: the files are symlinks
 * through {@code ..data}, which is swapped atomically to a new hidden directory (the kubelet's
 * AtomicWriter, pkg/volume/util/atomic_writer.go).
 */
class WebhookCertificateReloadTest {
  @TempDir Path mount;

  @Test
  void aRenewedSecretIsServedWithinTenSeconds() throws Exception {
    TlsMaterial a = TlsMaterial.selfSigned(List.of("localhost"), Clock.systemUTC());
    TlsMaterial b = TlsMaterial.selfSigned(List.of("localhost"), Clock.systemUTC());
    SecretVolume volume = new SecretVolume(mount);
    volume.publish(a);

    WebhookOptions stage = new WebhookOptions();
    stage.certDir = mount;
    WebhookMetrics metrics = new WebhookMetrics(new SimpleMeterRegistry());
    ClusterState state = new ClusterState();
    state.markWarm();
    try (WebhookServer server = WebhookServer.start(0, stage.sslContext(),
        new AdmissionHandler(state, metrics), metrics, 2, 64 * 1024, Duration.ofSeconds(2))) {
      assertThat(served(server.port())).isEqualTo(a.certificate());

      volume.publish(b);
      long rotated = System.nanoTime();
      X509Certificate now = served(server.port());
      while (!now.equals(b.certificate()) && System.nanoTime() - rotated < Duration.ofSeconds(15).toNanos()) {
        Thread.sleep(250);
        now = served(server.port());
      }
      Duration took = Duration.ofNanos(System.nanoTime() - rotated);

      assertThat(now).as("certificate served after the swap").isEqualTo(b.certificate());
      assertThat(took).isLessThanOrEqualTo(Duration.ofSeconds(10));
    }
  }

  /** The leaf certificate a fresh TLS connection to the webhook is given. */
  private static X509Certificate served(int port) throws IOException {
    // The test compares whatever certificate is served; the handshake need not trust it.
    SSLContext context = HttpTls.trustingEveryone();
    try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.setSoTimeout(5_000);
      socket.startHandshake();
      return (X509Certificate) socket.getSession().getPeerCertificates()[0];
    }
  }

  /** A Secret volume as the kubelet lays it out: {@code tls.crt -> ..data/tls.crt}, {@code ..data -> ..<ts>}. */
  private record SecretVolume(Path dir) {
    void publish(TlsMaterial material) throws IOException {
      Path version = Files.createTempDirectory(dir, "..ts_");
      Files.writeString(version.resolve(TlsMaterial.CERT_FILE), pem("CERTIFICATE", encoded(material.certificate())));
      Files.writeString(version.resolve(TlsMaterial.KEY_FILE), pem("PRIVATE KEY", material.key().getEncoded()));
      Path data = dir.resolve("..data");
      Path old = Files.isSymbolicLink(data) ? dir.resolve(Files.readSymbolicLink(data)) : null;
      Path tmp = dir.resolve("..data_tmp");
      Files.deleteIfExists(tmp);
      Files.createSymbolicLink(tmp, version.getFileName());
      Files.move(tmp, data, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      if (old != null) { // the kubelet removes the previous version once the swap is done
        for (String file : List.of(TlsMaterial.CERT_FILE, TlsMaterial.KEY_FILE)) {
          Files.delete(old.resolve(file));
        }
        Files.delete(old);
      }
      for (String file : List.of(TlsMaterial.CERT_FILE, TlsMaterial.KEY_FILE)) {
        if (!Files.isSymbolicLink(dir.resolve(file))) {
          Files.createSymbolicLink(dir.resolve(file), Path.of("..data", file));
        }
      }
    }

    private static byte[] encoded(X509Certificate certificate) {
      try {
        return certificate.getEncoded();
      } catch (CertificateEncodingException e) {
        throw new IllegalStateException(e);
      }
    }

    private static String pem(String type, byte[] der) {
      Base64.Encoder base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
      return "-----BEGIN " + type + "-----\n" + base64.encodeToString(der) + "\n-----END " + type + "-----\n";
    }
  }
}
