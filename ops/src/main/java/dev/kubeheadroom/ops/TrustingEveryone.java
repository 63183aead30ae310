package dev.kubeheadroom.ops;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A client TLS context that encrypts and verifies nothing, for an endpoint whose certificate
 * cannot be checked: a self-signed metrics certificate, or a topology instance reached by its pod
 * IP, which no certificate names. Extended on purpose: the JDK wraps a plain
 * {@code X509TrustManager} in one that still checks the host name against the certificate.
 */
public final class TrustingEveryone extends X509ExtendedTrustManager {
  private TrustingEveryone() {}

  public static SSLContext context() {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {new TrustingEveryone()}, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("TLS is part of every JDK", e);
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) {}

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) {}

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
