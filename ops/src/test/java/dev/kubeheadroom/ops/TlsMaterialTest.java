package dev.kubeheadroom.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.ops.Fixtures.KeyEncoding;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsMaterialTest {
  @TempDir Path dir;
  private final Clock clock = Clock.systemUTC();

  @Test
  void selfSignedCertificateNamesLocalhostLoopbackAndTheGivenNames() throws Exception {
    // when generated with one extra DNS name
    TlsMaterial material = TlsMaterial.selfSigned(List.of("headroom-metrics.ns.svc"), clock);

    // then its SANs are exactly those, and it is its own issuer
    X509Certificate cert = material.certificate();
    assertThat(cert.getSubjectAlternativeNames())
        .extracting(san -> (Object) san.get(1))
        .containsExactly((Object) "localhost", "127.0.0.1", "headroom-metrics.ns.svc");
    assertThat(cert.getIssuerX500Principal()).isEqualTo(cert.getSubjectX500Principal());
    assertThat(material.isSelfSigned()).isTrue();
  }

  @Test
  void loadsAnRsaKeyInPkcs1() throws Exception {
    TlsMaterial written = TlsMaterial.selfSigned(Fixtures.rsa(), List.of(), clock);
    Fixtures.writePemDir(dir, written, KeyEncoding.PKCS1);
    assertThat(Files.readString(dir.resolve("tls.key"))).contains("BEGIN RSA PRIVATE KEY");

    TlsMaterial loaded = TlsMaterial.load(dir);

    assertThat(loaded.certificate()).isEqualTo(written.certificate());
    assertThat(loaded.key().getEncoded()).isEqualTo(written.key().getEncoded());
    assertThat(loaded.caCertificates()).containsExactly(written.certificate());
  }

  @Test
  void loadsAnRsaKeyInPkcs8() throws Exception {
    TlsMaterial written = TlsMaterial.selfSigned(Fixtures.rsa(), List.of(), clock);
    Fixtures.writePemDir(dir, written, KeyEncoding.PKCS8);
    assertThat(Files.readString(dir.resolve("tls.key"))).contains("BEGIN PRIVATE KEY");

    assertThat(TlsMaterial.load(dir).key().getEncoded()).isEqualTo(written.key().getEncoded());
  }

  @Test
  void loadsAnEcKeyInSec1() throws Exception {
    TlsMaterial written = TlsMaterial.selfSigned(List.of(), clock);
    Fixtures.writePemDir(dir, written, KeyEncoding.PKCS1);
    assertThat(Files.readString(dir.resolve("tls.key"))).contains("BEGIN EC PRIVATE KEY");

    assertThat(((ECPrivateKey) TlsMaterial.load(dir).key()).getS())
        .isEqualTo(((ECPrivateKey) written.key()).getS());
  }

  @Test
  void aCaFileIsOptional() throws Exception {
    Fixtures.writePemDir(dir, TlsMaterial.selfSigned(List.of(), clock), KeyEncoding.PKCS8);
    Files.delete(dir.resolve("ca.crt"));

    assertThat(TlsMaterial.load(dir).caCertificates()).isEmpty();
  }

  @Test
  void aBrokenKeyIsReportedInOneLineNamingTheFile() throws Exception {
    Fixtures.writePemDir(dir, TlsMaterial.selfSigned(List.of(), clock), KeyEncoding.PKCS8);
    Files.writeString(dir.resolve("tls.key"),
        "-----BEGIN PRIVATE KEY-----\nnot base64 at all!\n-----END PRIVATE KEY-----\n");

    assertThatThrownBy(() -> TlsMaterial.load(dir))
        .isInstanceOf(TlsMaterialException.class)
        .hasMessageStartingWith(dir.resolve("tls.key") + ": ")
        .hasMessageNotContaining("\n");
  }

  @Test
  void aBrokenCertificateIsReportedNamingTheFile() throws Exception {
    Fixtures.writePemDir(dir, TlsMaterial.selfSigned(List.of(), clock), KeyEncoding.PKCS8);
    Files.writeString(dir.resolve("tls.crt"), "hello\n");

    assertThatThrownBy(() -> TlsMaterial.load(dir))
        .isInstanceOf(TlsMaterialException.class)
        .hasMessageStartingWith(dir.resolve("tls.crt") + ": ");
  }

  @Test
  void aKeyThatIsNotInTheFileIsReportedAsACertificateOnly() throws Exception {
    TlsMaterial material = TlsMaterial.selfSigned(List.of(), clock);
    Fixtures.writePemDir(dir, material, KeyEncoding.PKCS8);
    Files.writeString(dir.resolve("tls.key"), Fixtures.pem(material.certificate()));

    assertThatThrownBy(() -> TlsMaterial.load(dir))
        .hasMessage(dir.resolve("tls.key") + ": expected a PEM private key, found X509CertificateHolder");
  }

  @Test
  void aMissingKeyFileIsNamed() throws Exception {
    Fixtures.writePemDir(dir, TlsMaterial.selfSigned(List.of(), clock), KeyEncoding.PKCS8);
    Files.delete(dir.resolve("tls.key"));

    assertThatThrownBy(() -> TlsMaterial.load(dir)).hasMessage(dir.resolve("tls.key") + ": missing");
  }

  @Test
  void aMissingDirectoryIsNamed() {
    Path absent = dir.resolve("nope");
    assertThatThrownBy(() -> TlsMaterial.load(absent))
        .hasMessage(absent + ": metrics certificate directory does not exist");
  }

  @Test
  void aKeyFromAnotherCertificateIsAMismatchNamingBothFiles() throws Exception {
    Fixtures.writePemDir(dir, TlsMaterial.selfSigned(List.of(), clock), KeyEncoding.PKCS8);
    Path other = dir.resolve("other");
    Fixtures.writePemDir(other, TlsMaterial.selfSigned(List.of(), clock), KeyEncoding.PKCS8);
    Files.copy(other.resolve("tls.key"), dir.resolve("tls.key"),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);

    assertThatThrownBy(() -> TlsMaterial.load(dir))
        .hasMessage(dir.resolve("tls.key") + ": private key does not match the certificate in "
            + dir.resolve("tls.crt"));
  }
}
