package dev.kubeheadroom.ops;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509TrustManager;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * A serving certificate chain and its private key, plus the CA certificates to trust: either read
 * from a cert-manager Secret directory ({@code tls.crt}, {@code tls.key}, optional {@code ca.crt})
 * or generated self-signed in memory (runbook "Metrics TLS and scraper trust").
 *
 * <p>Keys are read with Bouncy Castle's PEM parser, which covers cert-manager's encodings: PKCS#1
 * ({@code BEGIN RSA PRIVATE KEY}), SEC1 ({@code BEGIN EC PRIVATE KEY}, possibly after an {@code EC
 * PARAMETERS} block) and PKCS#8 ({@code BEGIN PRIVATE KEY}). Bouncy Castle is not registered as a
 * JCA provider; the JDK's providers do the cryptography.
 */
public final class TlsMaterial {
  public static final String CERT_FILE = "tls.crt";
  public static final String KEY_FILE = "tls.key";
  public static final String CA_FILE = "ca.crt";

  private static final char[] STORE_PASSWORD = "in-memory".toCharArray();
  private static final Duration SELF_SIGNED_VALIDITY = Duration.ofDays(365);

  private final List<X509Certificate> chain;
  private final PrivateKey key;
  private final List<X509Certificate> caCertificates;
  private final boolean selfSigned;

  private TlsMaterial(
      List<X509Certificate> chain, PrivateKey key, List<X509Certificate> ca, boolean selfSigned) {
    this.chain = List.copyOf(chain);
    this.key = key;
    this.caCertificates = List.copyOf(ca);
    this.selfSigned = selfSigned;
  }

  /**
   * Reads {@code tls.crt}, {@code tls.key} and, if present, {@code ca.crt} from {@code dir}.
   *
   * @throws TlsMaterialException with a one-line message naming the file at fault
   */
  public static TlsMaterial load(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new TlsMaterialException(dir + ": metrics certificate directory does not exist");
    }
    Path certFile = dir.resolve(CERT_FILE);
    Path keyFile = dir.resolve(KEY_FILE);
    Path caFile = dir.resolve(CA_FILE);
    List<X509Certificate> chain = parseCertificates(certFile, read(certFile));
    PrivateKey key = parseKey(keyFile, read(keyFile));
    if (!matches(key, chain.get(0).getPublicKey())) {
      throw new TlsMaterialException(
          keyFile + ": private key does not match the certificate in " + certFile);
    }
    List<X509Certificate> ca =
        Files.exists(caFile) ? parseCertificates(caFile, read(caFile)) : List.of();
    return new TlsMaterial(chain, key, ca, false);
  }

  /**
   * A fresh EC P-256 key and a self-signed certificate valid for a year from {@code clock}, with
   * subject alternative names {@code localhost}, {@code 127.0.0.1} and {@code names} (IP
   * literals become IP SANs). Nothing is written to disk.
   */
  public static TlsMaterial selfSigned(List<String> names, Clock clock) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return selfSigned(generator.generateKeyPair(), names, clock);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot generate a self-signed metrics certificate", e);
    }
  }

  /** As {@link #selfSigned(List, Clock)} for a given key pair (RSA or EC). */
  static TlsMaterial selfSigned(KeyPair keys, List<String> names, Clock clock) {
    Set<String> sans = new LinkedHashSet<>(List.of("localhost", "127.0.0.1"));
    sans.addAll(names);
    List<GeneralName> generalNames = new ArrayList<>();
    for (String san : sans) {
      generalNames.add(
          isIpLiteral(san)
              ? new GeneralName(GeneralName.iPAddress, san)
              : new GeneralName(GeneralName.dNSName, san));
    }
    X500Name subject = new X500Name("CN=kube-headroom metrics (self-signed)");
    Instant now = clock.instant();
    String signature = keys.getPrivate().getAlgorithm().equals("EC") ? "SHA256withECDSA"
        : "SHA256withRSA";
    try {
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              subject,
              new BigInteger(63, new SecureRandom()).add(BigInteger.ONE),
              Date.from(now.minus(Duration.ofHours(1))),
              Date.from(now.plus(SELF_SIGNED_VALIDITY)),
              subject,
              keys.getPublic());
      builder.addExtension(
          Extension.subjectAlternativeName,
          false,
          new GeneralNames(generalNames.toArray(GeneralName[]::new)));
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      builder.addExtension(
          Extension.keyUsage,
          true,
          new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
      builder.addExtension(
          Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
      X509Certificate cert =
          new JcaX509CertificateConverter()
              .getCertificate(
                  builder.build(new JcaContentSignerBuilder(signature).build(keys.getPrivate())));
      return new TlsMaterial(List.of(cert), keys.getPrivate(), List.of(), true);
    } catch (IOException | CertificateException | OperatorCreationException e) {
      throw new IllegalStateException("cannot generate a self-signed metrics certificate", e);
    }
  }

  /** The serving certificate (first of the chain). */
  public X509Certificate certificate() {
    return chain.get(0);
  }

  public List<X509Certificate> chain() {
    return chain;
  }

  public PrivateKey key() {
    return key;
  }

  /** The certificates of {@code ca.crt}; empty when self-signed or absent. */
  public List<X509Certificate> caCertificates() {
    return caCertificates;
  }

  public boolean isSelfSigned() {
    return selfSigned;
  }

  /** A key manager presenting this chain and key. */
  public X509ExtendedKeyManager keyManager() {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("serving", key, STORE_PASSWORD, chain.toArray(Certificate[]::new));
      KeyManagerFactory factory =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      factory.init(store, STORE_PASSWORD);
      return (X509ExtendedKeyManager) factory.getKeyManagers()[0];
    } catch (GeneralSecurityException | IOException e) {
      throw new TlsMaterialException("cannot build a key manager: " + e.getMessage());
    }
  }

  /**
   * A trust manager for client certificates issued by {@code ca.crt}, or empty without one. The
   * metrics server asks for, but does not require, a client certificate.
   */
  public Optional<X509TrustManager> clientTrustManager() {
    if (caCertificates.isEmpty()) {
      return Optional.empty();
    }
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      for (int i = 0; i < caCertificates.size(); i++) {
        store.setCertificateEntry("ca-" + i, caCertificates.get(i));
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      return Optional.of((X509TrustManager) factory.getTrustManagers()[0]);
    } catch (GeneralSecurityException | IOException e) {
      throw new TlsMaterialException("cannot build a trust manager: " + e.getMessage());
    }
  }

  /** A one-line description for logs: subject, SANs count, expiry. */
  public String describe() {
    X509Certificate cert = certificate();
    return cert.getSubjectX500Principal().getName() + ", expires " + cert.getNotAfter().toInstant()
        + (selfSigned ? ", self-signed" : "");
  }

  static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new TlsMaterialException(file + ": missing");
    } catch (AccessDeniedException e) {
      throw new TlsMaterialException(file + ": permission denied");
    } catch (IOException e) {
      throw new TlsMaterialException(file + ": cannot read (" + e.getMessage() + ")");
    }
  }

  private static List<X509Certificate> parseCertificates(Path file, byte[] pem) {
    try {
      List<X509Certificate> certs = new ArrayList<>();
      for (Certificate c :
          CertificateFactory.getInstance("X.509")
              .generateCertificates(new ByteArrayInputStream(pem))) {
        certs.add((X509Certificate) c);
      }
      if (certs.isEmpty()) {
        throw new TlsMaterialException(file + ": no PEM certificate found");
      }
      return certs;
    } catch (CertificateException e) {
      throw new TlsMaterialException(file + ": not a PEM certificate (" + e.getMessage() + ")");
    }
  }

  private static PrivateKey parseKey(Path file, byte[] pem) {
    JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
    try (PEMParser parser =
        new PEMParser(new StringReader(new String(pem, StandardCharsets.US_ASCII)))) {
      for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
        if (object instanceof PEMKeyPair pair) {
          // PKCS#1 or SEC1; SEC1's public key is optional, so convert only the private part
          return converter.getPrivateKey(pair.getPrivateKeyInfo());
        } else if (object instanceof PrivateKeyInfo info) {
          return converter.getPrivateKey(info);
        } else if (object instanceof PEMEncryptedKeyPair
            || object instanceof PKCS8EncryptedPrivateKeyInfo) {
          throw new TlsMaterialException(file + ": encrypted private keys are not supported");
        } else if (!(object instanceof ASN1ObjectIdentifier || object instanceof X9ECParameters)) {
          throw new TlsMaterialException(
              file + ": expected a PEM private key, found " + object.getClass().getSimpleName());
        }
      }
      throw new TlsMaterialException(file + ": no PEM private key found");
    } catch (IOException | RuntimeException e) {
      if (e instanceof TlsMaterialException t) {
        throw t;
      }
      throw new TlsMaterialException(file + ": not a PEM private key (" + e.getMessage() + ")");
    }
  }

  /** Whether the key signs what the certificate's public key verifies. */
  private static boolean matches(PrivateKey key, PublicKey publicKey) {
    if (!key.getAlgorithm().equals(publicKey.getAlgorithm())) {
      return false;
    }
    String algorithm =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          case "Ed25519", "EdDSA" -> "Ed25519";
          default -> null;
        };
    if (algorithm == null) {
      return true; // unknown algorithm: let the TLS handshake be the judge
    }
    try {
      byte[] probe = new byte[32];
      new SecureRandom().nextBytes(probe);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(probe);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(publicKey);
      verifier.update(probe);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private static boolean isIpLiteral(String name) {
    if (!name.matches("[0-9.]+") && !name.contains(":")) {
      return false;
    }
    try {
      InetAddress.getByName(name); // literal: parsed without a lookup
      return true;
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** The bytes of {@code tls.crt} and {@code tls.key}, to notice a rotation. */
  static byte[] fingerprint(Path dir) {
    byte[] cert = read(dir.resolve(CERT_FILE));
    byte[] key = read(dir.resolve(KEY_FILE));
    byte[] both = Arrays.copyOf(cert, cert.length + key.length);
    System.arraycopy(key, 0, both, cert.length, key.length);
    return both;
  }
}
