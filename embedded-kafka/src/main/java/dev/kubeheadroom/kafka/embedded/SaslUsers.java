package dev.kubeheadroom.kafka.embedded;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A secured embedded broker's identities. Clients log in with SCRAM-SHA-512 over {@code SASL_SSL}
 * (the broker's certificate is self-signed per start, see {@link BrokerTls}); Kafka's {@code
 * StandardAuthorizer} with {@code allow.everyone.if.no.acl.found=false} decides, and {@code
 * superUser} is the only super user. Every other user can do exactly what ACLs grant it, as on a
 * production Kafka run least-privilege. The SCRAM credentials are written into the metadata log
 * when the data directory is formatted, so the users are fixed on the first start. The
 * controller listener, which no client reaches, keeps SASL/PLAIN: a KRaft controller cannot check
 * SCRAM credentials before it has read them from the metadata log. For tests: the passwords are
 * in the broker's configuration in clear.
 *
 * @param superUser the admin: creates topics and ACLs; the broker's own identity
 * @param passwords every user's password, the super user's included
 */
public record SaslUsers(String superUser, Map<String, String> passwords) {
  /** The client listener's name (and protocol) on a secured broker. */
  static final String LISTENER = "SASL_SSL";
  /** The client listener's SASL mechanism. */
  public static final String MECHANISM = "SCRAM-SHA-512";
  private static final String SCRAM_LOGIN = "org.apache.kafka.common.security.scram.ScramLoginModule";
  private static final String CONTROLLER_MECHANISM = "PLAIN";
  private static final String PLAIN_LOGIN = "org.apache.kafka.common.security.plain.PlainLoginModule";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

  public SaslUsers {
    passwords = Map.copyOf(new TreeMap<>(passwords));
    if (!passwords.containsKey(superUser)) {
      throw new IllegalArgumentException("the super user " + superUser + " needs a password");
    }
    passwords.forEach((user, password) -> {
      if (!NAME.matcher(user).matches() || !NAME.matcher(password).matches()) {
        throw new IllegalArgumentException(
            "user names and passwords may only contain letters, digits, '.', '_' and '-': " + user);
      }
    });
  }

  /** {@code admin} as the super user and one user per name, each with a password of its own. */
  public static SaslUsers of(String... users) {
    Map<String, String> passwords = new HashMap<>();
    passwords.put("admin", "admin-secret");
    for (String user : users) {
      passwords.put(user, user + "-secret");
    }
    return new SaslUsers("admin", passwords);
  }

  /**
   * The SASL properties a client logging in as {@code user} adds to {@code bootstrap.servers}
   * (the broker adds its trust store, see {@link EmbeddedKafka#clientProperties}).
   */
  Map<String, String> clientLogin(String user) {
    String password = passwords.get(user);
    if (password == null) {
      throw new IllegalArgumentException("no such user on this broker: " + user);
    }
    return Map.of(
        "security.protocol", LISTENER,
        "sasl.mechanism", MECHANISM,
        "sasl.jaas.config", login(SCRAM_LOGIN, user, password, ""));
  }

  /** {@code kafka-storage format} arguments that store every user's SCRAM credential. */
  List<String> formatArguments() {
    List<String> args = new ArrayList<>();
    passwords.forEach((user, password) -> {
      args.add("--add-scram");
      args.add(MECHANISM + "=[name=" + user + ",password=" + password + "]");
    });
    return args;
  }

  /**
   * Replaces the plaintext listeners of {@link EmbeddedKafka#brokerProperties} with SASL ones and
   * turns the authorizer on. The controller listener is secured too: with it in plaintext the
   * broker would reach its controller as {@code User:ANONYMOUS}, which would then have to be a
   * super user.
   */
  void secure(Properties p, int brokerPort, int controllerPort, BrokerTls tls) {
    p.setProperty("listeners",
        LISTENER + "://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.setProperty("advertised.listeners", LISTENER + "://127.0.0.1:" + brokerPort);
    p.setProperty("inter.broker.listener.name", LISTENER);
    p.setProperty("listener.security.protocol.map", LISTENER + ":SASL_SSL,CONTROLLER:SASL_PLAINTEXT");
    p.setProperty("sasl.enabled.mechanisms", MECHANISM + "," + CONTROLLER_MECHANISM);
    p.setProperty("listener.name.sasl_ssl.sasl.enabled.mechanisms", MECHANISM);
    p.setProperty("listener.name.controller.sasl.enabled.mechanisms", CONTROLLER_MECHANISM);
    p.setProperty("sasl.mechanism.inter.broker.protocol", MECHANISM);
    p.setProperty("sasl.mechanism.controller.protocol", CONTROLLER_MECHANISM);
    String superPassword = passwords.get(superUser);
    p.setProperty("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
        login(SCRAM_LOGIN, superUser, superPassword, ""));
    tls.serverProperties("listener.name.sasl_ssl.").forEach(p::setProperty);
    StringBuilder users = new StringBuilder();
    passwords.forEach((user, password) -> users.append(" user_").append(user).append("=\"").append(password).append('"'));
    p.setProperty("listener.name.controller.plain.sasl.jaas.config",
        login(PLAIN_LOGIN, superUser, superPassword, users.toString()));
    p.setProperty("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    p.setProperty("allow.everyone.if.no.acl.found", "false");
    p.setProperty("super.users", "User:" + superUser);
  }

  private static String login(String module, String user, String password, String more) {
    return module + " required username=\"" + user + "\" password=\"" + password + "\"" + more + ";";
  }
}
