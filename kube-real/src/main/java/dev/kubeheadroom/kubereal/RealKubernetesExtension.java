package dev.kubeheadroom.kubereal;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Resolves {@link RealControlPlane} parameters to the JVM's shared real control plane. The check
 * for its binaries runs before the class, so a machine without them skips the whole class with
 * one line (and CI, which must run it, fails).
 */
public final class RealKubernetesExtension implements BeforeAllCallback, ParameterResolver {

  @Override
  public void beforeAll(ExtensionContext context) {
    RealKubernetes.shared();
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == RealControlPlane.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return RealKubernetes.shared();
  }
}
