package dev.kubeheadroom.kubereal;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/** The test class runs against the JVM's real kube-apiserver ({@link RealKubernetes#shared()}). */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RealKubernetesExtension.class)
public @interface WithRealKubernetes {}
