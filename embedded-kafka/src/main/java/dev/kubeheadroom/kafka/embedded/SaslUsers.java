package dev.kubeheadroom.kafka.embedded;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A secured embedded broker's identities: SASL/PLAIN over {@code SASL_PLAINTEXT} on both the
 * client and the controller listener, Kafka's {@code StandardAuthorizer} with {@code
 * allow.everyone.if.no.acl.found=false}, and {@code superUser} the only super user (the broker
 * itself talks to its controller as that user). Every other user can do exactly what ACLs grant
 * it, as on a production Kafka run least-privilege. For tests: the passwords are in the broker's
 * configuration in clear.
 *
 * @param superUser the admin: creates topics and ACLs; the broker's own identity
 * @param passwords every user's password, the super user's included
 */
public record SaslUsers(String superUser, Map<String, String> passwords) {
  /** The client listener's name (and protocol) on a secured broker. */
  static final String LISTENER = "SASL_PLAINTEXT";
  private static final String MECHANISM = "PLAIN";
  private static final String LOGIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";
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

  /** The properties a client logging in as {@code user} adds to {@code bootstrap.servers}. */
  public Map<String, String> clientProperties(String user) {
    String password = passwords.get(user);
    if (password == null) {
      throw new IllegalArgumentException("no such user on this broker: " + user);
    }
    return Map.of(
        "security.protocol", "SASL_PLAINTEXT",
        "sasl.mechanism", MECHANISM,
        "sasl.jaas.config", login(user, password, ""));
  }

  /**
   * Replaces the plaintext listeners of {@link EmbeddedKafka#brokerProperties} with SASL ones and
   * turns the authorizer on. The controller listener is secured too: with it in plaintext the
   * broker would reach its controller as {@code User:ANONYMOUS}, which would then have to be a
   * super user.
   */
  void secure(Properties p, int brokerPort, int controllerPort) {
    p.setProperty("listeners",
        LISTENER + "://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.setProperty("advertised.listeners", LISTENER + "://127.0.0.1:" + brokerPort);
    p.setProperty("inter.broker.listener.name", LISTENER);
    p.setProperty("listener.security.protocol.map", LISTENER + ":SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT");
    p.setProperty("sasl.enabled.mechanisms", MECHANISM);
    p.setProperty("sasl.mechanism.inter.broker.protocol", MECHANISM);
    p.setProperty("sasl.mechanism.controller.protocol", MECHANISM);
    StringBuilder users = new StringBuilder();
    passwords.forEach((user, password) -> users.append(" user_").append(user).append("=\"").append(password).append('"'));
    String server = login(superUser, passwords.get(superUser), users.toString());
    p.setProperty("listener.name.sasl_plaintext.plain.sasl.jaas.config", server);
    p.setProperty("listener.name.controller.plain.sasl.jaas.config", server);
    p.setProperty("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    p.setProperty("allow.everyone.if.no.acl.found", "false");
    p.setProperty("super.users", "User:" + superUser);
  }

  private static String login(String user, String password, String more) {
    return LOGIN_MODULE + " required username=\"" + user + "\" password=\"" + password + "\"" + more + ";";
  }
}
