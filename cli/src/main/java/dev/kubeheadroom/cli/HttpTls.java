package dev.kubeheadroom.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import dev.kubeheadroom.ops.TrustingEveryone;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** The TLS trust of the CLI's own HTTP clients ({@code explain --live}, {@code explain --prometheus}). */
public final class HttpTls {
  private HttpTls() {}

  /** For a self-signed endpoint (runbook: Metrics TLS): encrypts, verifies nothing, not even the host name. */
  public static SSLContext trustingEveryone() {
    return TrustingEveryone.context();
  }

  /**
   * Trusts the CA certificates of a PEM file (and nothing else), e.g. the cluster's service CA;
   * an unreadable or certificate-less file is the user's mistake ({@code option} names it).
   */
  public static SSLContext trusting(String option, Path caPem) {
    try (InputStream in = Files.newInputStream(caPem)) {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int n = 0;
      for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        store.setCertificateEntry("ca-" + n++, c);
      }
      if (n == 0) {
        throw new UserError(option + " " + caPem + ": no certificate in it");
      }
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (IOException e) {
      throw new UserError(option + " " + caPem + ": cannot read it (" + e.getMessage() + ")");
    } catch (GeneralSecurityException e) {
      throw new UserError(option + " " + caPem + ": not PEM certificates (" + e.getMessage() + ")");
    }
  }
}
