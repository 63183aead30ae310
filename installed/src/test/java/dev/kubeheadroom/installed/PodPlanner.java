package dev.kubeheadroom.installed;

import dev.kubeheadroom.installed.StageProcess.PodPlan;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns one replica of a rendered Deployment into the command line and environment of a local
 * process: exactly the container's args and env, with only the substitutions a pod gets from
 * Kubernetes and that a process on this machine must get some other way:
 *
 * <ol>
 *   <li><b>The image's entrypoint</b> ({@code /opt/java/bin/java -cp @/app/jib-classpath-file
 *       dev.kubeheadroom.cli.Main}, cli/pom.xml) is {@code java -jar cli/target/headroom-operator.jar},
 *       the same main class on the same class path (not the {@code ./headroom} launcher's, which
 *       adds the demo and the API double).
 *   <li><b>Downward-API env</b> ({@code valueFrom.fieldRef}): {@code metadata.name} is the pod's
 *       name ({@code <deployment>-<index>}), {@code metadata.namespace} the release namespace,
 *       {@code status.podIP} the loopback address (every replica shares this machine's). Any
 *       other {@code valueFrom} or {@code envFrom} fails the plan: it would need a substitution
 *       this harness does not make.
 *   <li><b>The mounted ServiceAccount token</b>: a pod whose {@code automountServiceAccountToken}
 *       is not false gets {@code KUBECONFIG} naming a kubeconfig with its ServiceAccount's token
 *       at the double, which fabric8's {@code Config.autoConfigure} reads as it would read
 *       {@code /var/run/secrets/kubernetes.io/serviceaccount} in a pod. Nothing else of the
 *       client's configuration changes (retries, timeouts stay as shipped).
 *   <li><b>The pod IP</b>: every container port given as a flag value ({@code --health-port},
 *       {@code --metrics-port}, {@code --webhook-port}), and the port of a {@code HOST:PORT} flag
 *       value ({@code --application-server}, the topology's advertised bookings endpoint), moves to
 *       a free loopback port, since all replicas share this machine's network namespace.
 *   <li><b>Volumes</b>: a flag value under a volume mount path ({@code --state-dir},
 *       {@code --webhook-cert-dir}, {@code --metrics-cert-path}) moves to the same path under a
 *       per-pod temp directory, filled as the volume would be (a Secret's files, or empty).
 *   <li><b>{@code $(VAR)} in args</b> expanded from the container's env, as the kubelet does
 *       ({@link ArgExpansion}).
 *   <li><b>The environment</b> is the spec's alone (the test JVM's is not inherited), plus
 *       {@code HOME} pointing into the pod directory, so no {@code ~/.kube/config} of this machine
 *       can leak in.
 * </ol>
 */
final class PodPlanner {
  private static final Pattern FLAG = Pattern.compile("^(--[a-z0-9-]+)=(.*)$");
  private static final Pattern HOST_PORT = Pattern.compile("^([0-9a-zA-Z.-]+):(\\d+)$");
  static final Path CLI_JAR = Chart.ROOT.resolve("cli/target/headroom-operator.jar");

  private final String namespace;
  private final Path root;
  private final KubeconfigWriter kubeconfigs;
  private final BiConsumer<Volume, Path> volumes;

  /** Writes a kubeconfig acting as ServiceAccount {@code namespace/name} into a file. */
  interface KubeconfigWriter {
    void write(String namespace, String serviceAccount, Path file);
  }

  /**
   * @param volumes fills a volume's directory as Kubernetes would mount it (e.g. a Secret's files)
   */
  PodPlanner(String namespace, Path root, KubeconfigWriter kubeconfigs, BiConsumer<Volume, Path> volumes) {
    this.namespace = namespace;
    this.root = root.toAbsolutePath();
    this.kubeconfigs = kubeconfigs;
    this.volumes = volumes;
  }

  /** The plan of replica {@code index} of {@code deployment}. */
  PodPlan plan(Deployment deployment, int index) {
    if (!Files.isRegularFile(CLI_JAR)) {
      throw new IllegalStateException(CLI_JAR + " is missing: build it with mvn -pl cli -am package");
    }
    String podName = deployment.getMetadata().getName() + "-" + index;
    PodSpec spec = deployment.getSpec().getTemplate().getSpec();
    List<Container> containers = spec.getContainers();
    if (containers.size() != 1) {
      throw new IllegalStateException(podName + ": one container expected, got " + containers.size());
    }
    Container container = containers.get(0);
    Path dir = directory(root.resolve(podName));

    Map<Integer, Integer> portMap = new LinkedHashMap<>();
    Map<String, Integer> ports = new LinkedHashMap<>();
    for (ContainerPort p : container.getPorts()) {
      int local = freePort();
      portMap.put(p.getContainerPort(), local);
      ports.put(p.getName(), local);
    }
    Map<String, Path> mounts = new LinkedHashMap<>();
    for (VolumeMount m : container.getVolumeMounts()) {
      Path local = directory(dir.resolve("volumes").resolve(m.getName()));
      spec.getVolumes().stream().filter(v -> v.getName().equals(m.getName())).findFirst()
          .ifPresent(v -> volumes.accept(v, local));
      mounts.put(m.getMountPath(), local);
    }

    Map<String, String> env = new LinkedHashMap<>();
    env.put("HOME", directory(dir.resolve("home")).toString());
    if (container.getEnvFrom() != null && !container.getEnvFrom().isEmpty()) {
      throw new IllegalStateException(podName + ": envFrom is not substituted: " + container.getEnvFrom());
    }
    for (EnvVar var : container.getEnv()) {
      env.put(var.getName(), value(podName, var));
    }

    List<String> command = new ArrayList<>(List.of(javaBinary(), "-jar", CLI_JAR.toString()));
    if (container.getCommand() != null && !container.getCommand().isEmpty()) {
      throw new IllegalStateException(podName + ": a container command replaces the entrypoint: " + container.getCommand());
    }
    for (String arg : container.getArgs()) {
      command.add(substitute(ArgExpansion.expand(arg, env), portMap, mounts));
    }
    String serviceAccount = spec.getServiceAccountName();
    if (!Boolean.FALSE.equals(spec.getAutomountServiceAccountToken())) {
      Path kubeconfig = dir.resolve("kubeconfig");
      kubeconfigs.write(namespace, serviceAccount, kubeconfig);
      env.put("KUBECONFIG", kubeconfig.toString());
    }

    HTTPGetAction probe = container.getReadinessProbe().getHttpGet();
    String probePort = probe.getPort().getStrVal();
    if (probePort == null) {
      probePort = ports.entrySet().stream()
          .filter(e -> portMap.get(probe.getPort().getIntVal()) == e.getValue().intValue())
          .map(Map.Entry::getKey).findFirst().orElseThrow();
    }
    return new PodPlan(podName, serviceAccount, dir, List.copyOf(command), Map.copyOf(env), Map.copyOf(ports),
        probePort, probe.getPath());
  }

  private String value(String podName, EnvVar var) {
    if (var.getValueFrom() == null) {
      return var.getValue() == null ? "" : var.getValue();
    }
    if (var.getValueFrom().getFieldRef() != null) {
      String path = var.getValueFrom().getFieldRef().getFieldPath();
      return switch (path) {
        case "metadata.name" -> podName;
        case "metadata.namespace" -> namespace;
        case "status.podIP" -> "127.0.0.1";
        default -> throw new IllegalStateException(podName + ": env " + var.getName() + " from " + path
            + " is not substituted");
      };
    }
    throw new IllegalStateException(podName + ": env " + var.getName() + " from " + var.getValueFrom()
        + " is not substituted");
  }

  static String substitute(String arg, Map<Integer, Integer> ports, Map<String, Path> mounts) {
    Matcher flag = FLAG.matcher(arg);
    if (!flag.matches()) {
      return arg;
    }
    String name = flag.group(1);
    String value = flag.group(2);
    if (name.endsWith("-port") && value.matches("\\d+") && ports.containsKey(Integer.parseInt(value))) {
      return name + "=" + ports.get(Integer.parseInt(value));
    }
    Matcher hostPort = HOST_PORT.matcher(value);
    if (hostPort.matches() && ports.containsKey(Integer.parseInt(hostPort.group(2)))) {
      return name + "=" + hostPort.group(1) + ":" + ports.get(Integer.parseInt(hostPort.group(2)));
    }
    // The deepest mount wins: /tmp/k8s-webhook-server/serving-certs is its own volume inside /tmp.
    List<Map.Entry<String, Path>> deepestFirst = mounts.entrySet().stream()
        .sorted((a, b) -> b.getKey().length() - a.getKey().length()).toList();
    for (Map.Entry<String, Path> mount : deepestFirst) {
      String mountPath = mount.getKey();
      if (value.equals(mountPath) || value.startsWith(mountPath + "/")) {
        return name + "=" + mount.getValue() + value.substring(mountPath.length());
      }
    }
    return arg;
  }

  private static String javaBinary() {
    return ProcessHandle.current().info().command().orElse("java");
  }

  /**
   * Ports this JVM handed out: a port is free when asked for but only bound once its process
   * starts, so two flags of one pod (or two pods planned together) could otherwise get the same.
   */
  private static final java.util.Set<Integer> HANDED_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * A free loopback port below the kernel's ephemeral range (32768+): a port picked there can be
   * taken by any outgoing connection on this shared machine before the process binds it.
   */
  static int freePort() {
    java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = random.nextInt(20_000, 32_000);
      if (HANDED_OUT.contains(port)) {
        continue;
      }
      try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        if (HANDED_OUT.add(port)) {
          return socket.getLocalPort();
        }
      } catch (IOException taken) {
        // try another
      }
    }
    throw new IllegalStateException("no free loopback port in 20000-32000");
  }

  private static Path directory(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
