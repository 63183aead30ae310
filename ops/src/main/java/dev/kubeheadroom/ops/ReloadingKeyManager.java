package dev.kubeheadroom.ops;

import java.net.Socket;
import java.nio.file.Path;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the certificate in a cert-manager Secret directory and picks up a rotation: on a
 * handshake, at most once per {@code checkEvery}, it re-reads {@code tls.crt} and {@code tls.key}
 * and, if their bytes changed, loads them. A rotation caught half-written (or any unusable
 * material) is logged and the previous certificate stays in use until the next check.
 *
 * <p>The kubelet updates a mounted Secret by writing a new hidden directory and swapping the
 * {@code ..data} symlink that {@code tls.crt} and {@code tls.key} point through; reading the
 * files by name follows the swap. Used by the metrics server and the admission webhook:
 * {@code SSLContext.init(new KeyManager[] {new ReloadingKeyManager("webhook", dir, ...)}, ...)}.
 */
public final class ReloadingKeyManager extends X509ExtendedKeyManager {
  private static final Logger LOG = LoggerFactory.getLogger(ReloadingKeyManager.class);

  private final String what;
  private final Path dir;
  private final Duration checkEvery;
  private final Clock clock;
  private volatile Loaded loaded;
  private volatile Instant lastCheck;

  private record Loaded(byte[] fingerprint, TlsMaterial material, X509ExtendedKeyManager keys) {}

  /**
   * Loads the directory now.
   *
   * @param what whose certificate, for the log ({@code metrics}, {@code webhook})
   * @throws TlsMaterialException if the directory is unusable (one line, names the file)
   */
  public ReloadingKeyManager(String what, Path dir, Duration checkEvery, Clock clock) {
    this.what = what;
    this.dir = dir;
    this.checkEvery = checkEvery;
    this.clock = clock;
    byte[] fingerprint = TlsMaterial.fingerprint(dir);
    TlsMaterial material = TlsMaterial.load(dir);
    this.loaded = new Loaded(fingerprint, material, material.keyManager());
    this.lastCheck = clock.instant();
  }

  /** The material currently served. */
  public TlsMaterial current() {
    return loaded.material();
  }

  private X509ExtendedKeyManager keys() {
    Instant now = clock.instant();
    if (!now.isBefore(lastCheck.plus(checkEvery))) {
      synchronized (this) {
        if (!now.isBefore(lastCheck.plus(checkEvery))) {
          lastCheck = now;
          reloadIfChanged();
        }
      }
    }
    return loaded.keys();
  }

  private void reloadIfChanged() {
    try {
      byte[] fingerprint = TlsMaterial.fingerprint(dir);
      if (Arrays.equals(fingerprint, loaded.fingerprint())) {
        return;
      }
      TlsMaterial material = TlsMaterial.load(dir);
      loaded = new Loaded(fingerprint, material, material.keyManager());
      LOG.info("{} certificate reloaded from {}: {}", what, dir, material.describe());
    } catch (TlsMaterialException e) {
      LOG.warn("{} certificate not reloaded, keeping the previous one: {}", what, e.getMessage());
    }
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return keys().getClientAliases(keyType, issuers);
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return keys().chooseClientAlias(keyType, issuers, socket);
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return keys().getServerAliases(keyType, issuers);
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return keys().chooseServerAlias(keyType, issuers, socket);
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    return keys().chooseEngineServerAlias(keyType, issuers, engine);
  }

  @Override
  public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
    return keys().chooseEngineClientAlias(keyType, issuers, engine);
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return loaded.keys().getCertificateChain(alias);
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return loaded.keys().getPrivateKey(alias);
  }
}
