package dev.kubeheadroom.kafka.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
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
import java.util.Date;
import java.util.Map;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The secured broker's TLS: a self-signed certificate for {@code 127.0.0.1}/{@code localhost}
 * made at each start, in a PKCS#12 key store for the broker and a trust store for its clients, so
 * clients verify the broker's name as against a real one ({@code ssl.endpoint.identification.algorithm}
 * stays {@code https}). Test material: the store password is fixed and in clear.
 *
 * @param keyStore the broker's key and certificate
 * @param trustStore the certificate alone, for clients
 */
record BrokerTls(Path keyStore, Path trustStore) {
  private static final String PASSWORD = "embedded-kafka";
  private static final String TYPE = "PKCS12";
  private static final Duration VALIDITY = Duration.ofDays(30);

  /** Writes a fresh key store and trust store into {@code dir} (replacing earlier ones). */
  static BrokerTls generate(Path dir) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      KeyPair keys = generator.generateKeyPair();
      X500Name subject = new X500Name("CN=embedded-kafka");
      Instant now = Instant.now();
      JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject,
          new BigInteger(63, new SecureRandom()).add(BigInteger.ONE), Date.from(now.minus(Duration.ofHours(1))),
          Date.from(now.plus(VALIDITY)), subject, keys.getPublic());
      builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
          new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
      X509Certificate certificate = new JcaX509CertificateConverter()
          .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
      Files.createDirectories(dir);
      KeyStore keyStore = emptyStore();
      keyStore.setKeyEntry("broker", keys.getPrivate(), PASSWORD.toCharArray(), new Certificate[] {certificate});
      KeyStore trustStore = emptyStore();
      trustStore.setCertificateEntry("broker", certificate);
      BrokerTls tls = new BrokerTls(dir.resolve("broker.p12"), dir.resolve("truststore.p12"));
      write(keyStore, tls.keyStore);
      write(trustStore, tls.trustStore);
      return tls;
    } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
      throw new EmbeddedKafkaException("cannot make the broker's TLS certificate in " + dir + ": " + e, e);
    }
  }

  /** The broker's side of a TLS listener, as {@code listener.name.<listener>.} properties. */
  Map<String, String> serverProperties(String listenerPrefix) {
    return Map.of(
        listenerPrefix + "ssl.keystore.type", TYPE,
        listenerPrefix + "ssl.keystore.location", keyStore.toString(),
        listenerPrefix + "ssl.keystore.password", PASSWORD,
        listenerPrefix + "ssl.key.password", PASSWORD,
        listenerPrefix + "ssl.truststore.type", TYPE,
        listenerPrefix + "ssl.truststore.location", trustStore.toString(),
        listenerPrefix + "ssl.truststore.password", PASSWORD);
  }

  /** What a client adds to trust the broker. */
  Map<String, String> clientProperties() {
    return Map.of(
        "ssl.truststore.type", TYPE,
        "ssl.truststore.location", trustStore.toString(),
        "ssl.truststore.password", PASSWORD);
  }

  private static KeyStore emptyStore() throws GeneralSecurityException, IOException {
    KeyStore store = KeyStore.getInstance(TYPE);
    store.load(null, null);
    return store;
  }

  private static void write(KeyStore store, Path file) throws GeneralSecurityException, IOException {
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, PASSWORD.toCharArray());
    }
  }
}
