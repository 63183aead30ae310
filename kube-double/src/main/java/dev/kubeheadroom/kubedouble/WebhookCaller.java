package dev.kubeheadroom.kubedouble;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * One HTTPS POST of an AdmissionReview, as the API server's webhook client makes it: the server
 * certificate is verified against the webhook's {@code caBundle} (the JDK's trust roots when it is
 * empty) <em>for the host name the configuration names</em> ({@code NAME.NAMESPACE.svc} for a
 * service reference) while the TCP connection goes to wherever that name resolves, and the whole
 * exchange — connect, handshake, request, response — must end within the webhook's timeout.
 *
 * <p>A plain HTTP/1.1 exchange over an {@link SSLSocket} with {@code Connection: close}: the JDK's
 * HTTP clients verify a certificate against the host they connect to, which is not what a service
 * reference needs. Every call builds its trust from the bundle it is given, so a rotated CA is used
 * at once.
 */
final class WebhookCaller {
  private static final int MAX_RESPONSE_BYTES = 16 << 20;

  private WebhookCaller() {}

  /**
   * Where a call goes.
   *
   * @param url the URL as the API server names it in errors ({@code https://svc.ns.svc:443/path})
   * @param serverName the name the certificate must carry (and the SNI name)
   * @param address where to connect
   * @param pathAndQuery the request target, e.g. {@code /mutate-v1-pod?timeout=10s}
   */
  record Target(String url, String serverName, InetSocketAddress address, String pathAndQuery) {}

  /**
   * A failed call, with the reason the API server gives after {@code failed calling webhook "x": }
   * ({@code failed to call webhook: Post "URL": reason}, {@code could not get REST client: ...}).
   */
  static final class CallException extends Exception {
    CallException(String message) {
      super(message, null, false, false);
    }
  }

  /** The response body of a 2xx answer. */
  static byte[] post(Target target, byte[] caBundlePem, byte[] body, Duration timeout) throws CallException {
    long deadline = System.nanoTime() + timeout.toNanos();
    SSLContext tls = trusting(caBundlePem);
    if (target.address().isUnresolved()) {
      throw failure(target, "dial tcp: lookup " + target.address().getHostString() + ": no such host");
    }
    try (Socket raw = new Socket()) {
      raw.connect(target.address(), remainingMillis(deadline));
      try (SSLSocket socket = (SSLSocket) tls.getSocketFactory()
          .createSocket(raw, target.serverName(), target.address().getPort(), true)) {
        SSLParameters params = socket.getSSLParameters();
        params.setEndpointIdentificationAlgorithm("HTTPS");
        if (!target.serverName().matches("[0-9.]+|.*:.*")) {
          params.setServerNames(List.of(new SNIHostName(target.serverName())));
        }
        socket.setSSLParameters(params);
        socket.setSoTimeout(remainingMillis(deadline));
        socket.startHandshake();
        OutputStream out = socket.getOutputStream();
        out.write(requestHead(target, body.length).getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        return readResponse(socket, deadline, target);
      }
    } catch (SocketTimeoutException e) {
      throw failure(target, "context deadline exceeded");
    } catch (SSLException e) {
      throw failure(target, "tls: failed to verify certificate: " + rootMessage(e));
    } catch (IOException e) {
      throw failure(target, "dial tcp " + target.address().getHostString() + ":" + target.address().getPort()
          + ": " + rootMessage(e));
    }
  }

  private static String requestHead(Target target, int length) {
    return "POST " + target.pathAndQuery() + " HTTP/1.1\r\n"
        + "Host: " + target.serverName() + ":" + target.address().getPort() + "\r\n"
        + "User-Agent: kube-apiserver-admission\r\n"
        + "Accept: application/json, */*\r\n"
        + "Content-Type: application/json\r\n"
        + "Content-Length: " + length + "\r\n"
        + "Connection: close\r\n\r\n";
  }

  private static byte[] readResponse(SSLSocket socket, long deadline, Target target)
      throws IOException, CallException {
    InputStream in = socket.getInputStream();
    String head = readHead(in, socket, deadline);
    String[] lines = head.split("\r\n");
    String[] status = lines[0].split(" ", 3);
    if (status.length < 2 || !status[0].startsWith("HTTP/1.")) {
      throw failure(target, "malformed HTTP response \"" + lines[0] + "\"");
    }
    int code;
    try {
      code = Integer.parseInt(status[1]);
    } catch (NumberFormatException e) {
      throw failure(target, "malformed HTTP status code \"" + status[1] + "\"");
    }
    long length = -1;
    boolean chunked = false;
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon < 0) {
        continue;
      }
      String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = lines[i].substring(colon + 1).trim();
      if (name.equals("content-length")) {
        length = Long.parseLong(value);
      } else if (name.equals("transfer-encoding") && value.toLowerCase(Locale.ROOT).contains("chunked")) {
        chunked = true;
      }
    }
    byte[] body = chunked ? readChunked(in, socket, deadline) : readBody(in, socket, deadline, length);
    if (code / 100 != 2) {
      throw failure(target, "the server responded with the status code " + code
          + " but did not return more information");
    }
    return body;
  }

  private static String readHead(InputStream in, SSLSocket socket, long deadline) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int lastFour = 0;
    while (lastFour != 0x0D0A0D0A) { // up to the blank line: CR LF CR LF
      socket.setSoTimeout(remainingMillis(deadline));
      int b = in.read();
      if (b < 0) {
        throw new IOException("unexpected EOF");
      }
      head.write(b);
      lastFour = (lastFour << 8) | b;
      if (head.size() > 64 * 1024) {
        throw new IOException("response headers too large");
      }
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  private static byte[] readBody(InputStream in, SSLSocket socket, long deadline, long length) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    while (length < 0 || body.size() < length) {
      socket.setSoTimeout(remainingMillis(deadline));
      int want = length < 0 ? buf.length : (int) Math.min(buf.length, length - body.size());
      int n = in.read(buf, 0, want);
      if (n < 0) {
        if (length < 0) {
          break;
        }
        throw new IOException("unexpected EOF");
      }
      body.write(buf, 0, n);
      if (body.size() > MAX_RESPONSE_BYTES) {
        throw new IOException("response body larger than " + MAX_RESPONSE_BYTES + " bytes");
      }
    }
    return body.toByteArray();
  }

  private static byte[] readChunked(InputStream in, SSLSocket socket, long deadline) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String sizeLine = readLine(in, socket, deadline);
      int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
      if (size == 0) {
        return body.toByteArray();
      }
      body.writeBytes(readBody(in, socket, deadline, size));
      readLine(in, socket, deadline);
      if (body.size() > MAX_RESPONSE_BYTES) {
        throw new IOException("response body larger than " + MAX_RESPONSE_BYTES + " bytes");
      }
    }
  }

  private static String readLine(InputStream in, SSLSocket socket, long deadline) throws IOException {
    StringBuilder line = new StringBuilder();
    while (true) {
      socket.setSoTimeout(remainingMillis(deadline));
      int b = in.read();
      if (b < 0) {
        throw new IOException("unexpected EOF");
      }
      if (b == '\n') {
        return line.toString().trim();
      }
      line.append((char) b);
    }
  }

  /** Trust exactly the bundle's certificates, or the JDK's roots when there is no bundle. */
  private static SSLContext trusting(byte[] caBundlePem) throws CallException {
    try {
      if (caBundlePem == null || caBundlePem.length == 0) {
        return SSLContext.getDefault();
      }
      Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(caBundlePem));
      if (certificates.isEmpty()) {
        throw new GeneralSecurityException("no PEM certificate in caBundle");
      }
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      int i = 0;
      for (Certificate certificate : certificates) {
        store.setCertificateEntry("ca-" + i++, certificate);
      }
      TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new CallException("could not get REST client: unable to load root certificates: " + e.getMessage());
    }
  }

  private static int remainingMillis(long deadline) throws SocketTimeoutException {
    long left = Duration.ofNanos(deadline - System.nanoTime()).toMillis();
    if (left <= 0) {
      throw new SocketTimeoutException("deadline");
    }
    return (int) Math.min(Integer.MAX_VALUE, left);
  }

  private static CallException failure(Target target, String reason) {
    return new CallException("failed to call webhook: Post \"" + target.url() + "\": " + reason);
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }
}
