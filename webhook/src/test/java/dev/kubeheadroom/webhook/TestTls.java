package dev.kubeheadroom.webhook;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed serving certificate for {@code localhost}/{@code 127.0.0.1} and for the chart's
 * webhook Service ({@value #SERVICE_HOST}, the name the API server verifies), made once per JVM
 * with the JDK's {@code keytool} (the production certificate comes from cert-manager and is loaded
 * by the caller; this module only takes an {@link SSLContext}).
 */
final class TestTls {
  static final String SERVICE_NAMESPACE = "headroom-system";
  static final String SERVICE_NAME = "kube-headroom-webhook";
  static final String SERVICE_HOST = SERVICE_NAME + "." + SERVICE_NAMESPACE + ".svc";
  private static final char[] PASSWORD = "changeit".toCharArray();
  private static KeyStore keyStore;

  private TestTls() {}

  static synchronized KeyStore keyStore() {
    if (keyStore == null) {
      try {
        Path dir = Files.createTempDirectory("headroom-webhook-tls");
        Path file = dir.resolve("webhook.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(List.of(keytool, "-genkeypair", "-alias", "webhook",
            "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
            "-ext", "SAN=dns:localhost,ip:127.0.0.1,dns:" + SERVICE_HOST, "-validity", "2", "-storetype", "PKCS12",
            "-keystore", file.toString(), "-storepass", new String(PASSWORD)))
            .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(Duration.ofSeconds(60).toSeconds(), TimeUnit.SECONDS) || p.exitValue() != 0) {
          throw new IllegalStateException("keytool failed: " + output);
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
          ks.load(in, PASSWORD);
        }
        Files.delete(file);
        Files.delete(dir);
        keyStore = ks;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return keyStore;
  }

  /** The server side: the key and certificate. */
  static SSLContext server() {
    try {
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keyStore(), PASSWORD);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(kmf.getKeyManagers(), null, null);
      return ctx;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code clientConfig.caBundle} for that certificate: the base64 of its PEM. */
  static String caBundle() {
    try {
      String pem = "-----BEGIN CERTIFICATE-----\n"
          + java.util.Base64.getMimeEncoder(64, new byte[] {'\n'})
              .encodeToString(keyStore().getCertificate("webhook").getEncoded())
          + "\n-----END CERTIFICATE-----\n";
      return java.util.Base64.getEncoder().encodeToString(pem.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The client side: trusts exactly that certificate, as the API server trusts the caBundle. */
  static SSLContext client() {
    try {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("webhook", keyStore().getCertificate("webhook"));
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      return ctx;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
