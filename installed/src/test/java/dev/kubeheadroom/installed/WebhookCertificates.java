package dev.kubeheadroom.installed;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * What cert-manager does for the chart's webhook {@code Certificate}: a CA, a serving certificate
 * for the webhook Service's DNS names signed by it, written as the {@code webhook-server-cert}
 * Secret's volume looks in the pod ({@code tls.crt}, {@code tls.key}, {@code ca.crt}); and the CA
 * PEM its CA injector copies into the MutatingWebhookConfiguration's {@code caBundle}.
 */
final class WebhookCertificates {
  private static final Duration VALIDITY = Duration.ofDays(1);

  private WebhookCertificates() {}

  /** The CA, in PEM, whose certificate signed {@code tls.crt}. */
  record Issued(String caPem, String certPem, String keyPem) {
    /** Writes the three files of a {@code kubernetes.io/tls} Secret volume into {@code dir}. */
    void writeTo(Path dir) {
      try {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("tls.crt"), certPem, StandardCharsets.US_ASCII);
        Files.writeString(dir.resolve("tls.key"), keyPem, StandardCharsets.US_ASCII);
        Files.writeString(dir.resolve("ca.crt"), caPem, StandardCharsets.US_ASCII);
      } catch (IOException e) {
        throw new IllegalStateException("cannot write the webhook certificate to " + dir, e);
      }
    }
  }

  /**
   * A fresh CA and a serving certificate for {@code dnsNames} (the first is the subject) and
   * {@code ipAddresses} (where the API server dials the webhook at an address, not a Service).
   */
  static Issued issue(List<String> dnsNames, List<String> ipAddresses) {
    try {
      KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
      rsa.initialize(2048); // cert-manager's default private key
      KeyPair caKeys = rsa.generateKeyPair();
      KeyPair servingKeys = rsa.generateKeyPair();
      Instant now = Instant.now();
      X500Name caName = new X500Name("CN=kube-headroom test CA");
      X509v3CertificateBuilder ca = new JcaX509v3CertificateBuilder(caName, serial(),
          Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(VALIDITY)), caName, caKeys.getPublic());
      ca.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      ca.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      X509Certificate caCert = sign(ca, caKeys);

      GeneralName[] sans = java.util.stream.Stream.concat(
          dnsNames.stream().map(n -> new GeneralName(GeneralName.dNSName, n)),
          ipAddresses.stream().map(ip -> new GeneralName(GeneralName.iPAddress, ip))).toArray(GeneralName[]::new);
      X509v3CertificateBuilder serving = new JcaX509v3CertificateBuilder(caName, serial(),
          Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(VALIDITY)),
          new X500Name("CN=" + dnsNames.get(0)), servingKeys.getPublic());
      serving.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(sans));
      serving.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      serving.addExtension(Extension.keyUsage, true,
          new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
      serving.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
      X509Certificate servingCert = sign(serving, caKeys);
      return new Issued(pem(caCert), pem(servingCert),
          pem(new JcaPKCS8Generator(servingKeys.getPrivate(), null).generate()));
    } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
      throw new IllegalStateException("cannot issue the webhook certificate", e);
    }
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
      throws OperatorCreationException, GeneralSecurityException {
    return new JcaX509CertificateConverter()
        .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(signer.getPrivate())));
  }

  private static BigInteger serial() {
    return new BigInteger(63, new SecureRandom()).add(BigInteger.ONE);
  }

  private static String pem(Object object) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    }
    return out.toString();
  }
}
