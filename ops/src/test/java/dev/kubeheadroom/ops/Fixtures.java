package dev.kubeheadroom.ops;

import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.schemas.DecisionConfig;
import dev.kubeheadroom.schemas.DecisionStats;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.util.io.pem.PemObject;

/** Test data: decisions, PEM directories written the way cert-manager writes them, clients. */
final class Fixtures {
  private Fixtures() {}

  static NodeDecision decision(String node, long slackMilli, double factor, int managedPods,
      PodChange... changes) {
    DecisionStats stats = new DecisionStats(16_000, 16_000 - slackMilli, slackMilli, 4_000, managedPods,
        managedPods + 1, factor);
    return new NodeDecision(node, Instant.parse("2026-01-01T00:00:00Z"), 1, "proportional-v1",
        false, DecisionConfig.of(PolicyConfig.DEFAULTS), stats, List.of(), List.of(changes));
  }

  static PodChange change(String namespace, String name, long targetMilli) {
    return new PodChange("uid-" + name, namespace, name, "grow", 1000, targetMilli, List.of());
  }

  enum KeyEncoding { PKCS1, PKCS8 }

  static KeyPair rsa() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    return generator.generateKeyPair();
  }

  /** Writes tls.crt, tls.key (in the given encoding) and ca.crt (the certificate itself). */
  static void writePemDir(Path dir, TlsMaterial material, KeyEncoding encoding)
      throws IOException {
    Files.createDirectories(dir);
    String cert = pem(material.certificate());
    Files.writeString(dir.resolve("tls.crt"), cert);
    Files.writeString(dir.resolve("ca.crt"), cert);
    StringWriter key = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(key)) {
      if (encoding == KeyEncoding.PKCS8) {
        writer.writeObject(new JcaPKCS8Generator(material.key(), null));
      } else if (material.key().getAlgorithm().equals("EC")) {
        writer.writeObject(sec1(material));
      } else {
        writer.writeObject(material.key()); // traditional: RSA PRIVATE KEY / EC PRIVATE KEY
      }
    }
    Files.write(dir.resolve("tls.key"), key.toString().getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * SEC1 {@code EC PRIVATE KEY} with the named curve and public key, as Go's
   * {@code x509.MarshalECPrivateKey} (cert-manager, openssl) writes it. Bouncy Castle's own
   * writer drops the curve for a JDK key, which nothing could read back.
   */
  private static PemObject sec1(TlsMaterial material) throws IOException {
    PrivateKeyInfo info = PrivateKeyInfo.getInstance(material.key().getEncoded());
    ECPrivateKey inner = ECPrivateKey.getInstance(info.parsePrivateKey());
    SubjectPublicKeyInfo publicKey =
        SubjectPublicKeyInfo.getInstance(material.certificate().getPublicKey().getEncoded());
    ECPrivateKey full = new ECPrivateKey(256, inner.getKey(), publicKey.getPublicKeyData(),
        info.getPrivateKeyAlgorithm().getParameters());
    return new PemObject("EC PRIVATE KEY", full.getEncoded());
  }

  static String pem(X509Certificate certificate) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(certificate);
    }
    return out.toString();
  }

  /** A client TLS context that trusts exactly this certificate. */
  static SSLContext trusting(X509Certificate certificate) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setCertificateEntry("only", certificate);
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }
}
