package dev.kubeheadroom.kubedouble;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
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
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away CA and the serving certificates it issues, as cert-manager would make them for a
 * webhook Service: EC P-256, the leaf carrying {@code NAME.NAMESPACE.svc} as a DNS name.
 */
final class TestCertificates {
  private static final char[] PASSWORD = "test".toCharArray();

  private TestCertificates() {}

  /** A self-signed CA certificate and its key. */
  record Ca(X509Certificate certificate, KeyPair keys) {
    /** {@code clientConfig.caBundle}: the base64 of the PEM certificate. */
    String caBundle() {
      return Base64.getEncoder().encodeToString(pem(certificate).getBytes(StandardCharsets.US_ASCII));
    }

    /** A serving certificate for {@code dnsNames}, signed by this CA. */
    Serving issue(String... dnsNames) {
      KeyPair leafKeys = ecKeys();
      GeneralName[] names = new GeneralName[dnsNames.length];
      for (int i = 0; i < dnsNames.length; i++) {
        names[i] = new GeneralName(GeneralName.dNSName, dnsNames[i]);
      }
      try {
        X509v3CertificateBuilder builder = builder(new X500Name("CN=" + dnsNames[0]), leafKeys,
            new X500Name(certificate.getSubjectX500Principal().getName()));
        builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
        builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
        return new Serving(sign(builder, keys), leafKeys, this);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** A serving certificate, its key and the CA that signed it. */
  record Serving(X509Certificate certificate, KeyPair keys, Ca ca) {
    X509ExtendedKeyManager keyManager() {
      try {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("serving", keys.getPrivate(), PASSWORD,
            new Certificate[] {certificate, ca.certificate()});
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, PASSWORD);
        return (X509ExtendedKeyManager) factory.getKeyManagers()[0];
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  static Ca newCa(String commonName) {
    KeyPair keys = ecKeys();
    X500Name subject = new X500Name("CN=" + commonName);
    try {
      X509v3CertificateBuilder builder = builder(subject, keys, subject);
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      return new Ca(sign(builder, keys), keys);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static X509v3CertificateBuilder builder(X500Name subject, KeyPair subjectKeys, X500Name issuer) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(issuer, new BigInteger(63, new SecureRandom()).add(BigInteger.ONE),
        Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(2))), subject,
        subjectKeys.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair issuerKeys) throws Exception {
    return new JcaX509CertificateConverter().getCertificate(
        builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate())));
  }

  private static KeyPair ecKeys() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static String pem(X509Certificate certificate) {
    try {
      return "-----BEGIN CERTIFICATE-----\n"
          + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(certificate.getEncoded())
          + "\n-----END CERTIFICATE-----\n";
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
