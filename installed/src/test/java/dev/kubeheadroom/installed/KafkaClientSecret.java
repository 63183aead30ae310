package dev.kubeheadroom.installed;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The Secret a user creates for the chart's {@code kafka.clientProperties} (or
 * {@code kafka.auditClientProperties}): one key, {@code client.properties}, logging in as a
 * user of the secured broker. The broker's certificate is in the file itself
 * ({@code ssl.truststore.type=PEM}, {@code ssl.truststore.certificates}), a form Kafka clients
 * take that needs no second file at a path of the container's ({@code /etc/headroom/kafka/...}),
 * which a process on this machine could not open.
 */
final class KafkaClientSecret {
  static final String KEY = "client.properties";

  private KafkaClientSecret() {}

  /** Secret {@code name} in {@code namespace} whose {@link #KEY} logs in to {@code kafka} as {@code user}. */
  static Secret of(String namespace, String name, EmbeddedKafka kafka, String user) {
    Map<String, String> login = new HashMap<>(kafka.clientProperties(user));
    Path trustStore = Path.of(login.remove("ssl.truststore.location"));
    String password = login.remove("ssl.truststore.password");
    login.put("ssl.truststore.type", "PEM");
    login.put("ssl.truststore.certificates", pem(trustStore, password));
    Properties properties = new Properties();
    properties.putAll(login);
    StringWriter text = new StringWriter();
    try {
      properties.store(text, "Headroom's Kafka login as " + user);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new SecretBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
        .withData(Map.of(KEY, Base64.getEncoder().encodeToString(text.toString().getBytes(StandardCharsets.UTF_8))))
        .build();
  }

  /** The trust store's certificates, PEM-encoded. */
  private static String pem(Path trustStore, String password) {
    try (InputStream in = Files.newInputStream(trustStore)) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, password.toCharArray());
      StringBuilder pem = new StringBuilder();
      for (String alias : Collections.list(store.aliases())) {
        Certificate certificate = store.getCertificate(alias);
        pem.append("-----BEGIN CERTIFICATE-----\n")
            .append(Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(certificate.getEncoded()))
            .append("\n-----END CERTIFICATE-----\n");
      }
      return pem.toString();
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot read the broker's trust store " + trustStore + ": " + e, e);
    }
  }
}
