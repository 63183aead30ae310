package dev.kubeheadroom.bench;

import java.lang.management.ManagementFactory;

/**
 * The JVM's CPU time so far, all threads: on a machine shared with other work, CPU seconds say
 * what a run cost far better than wall time, which the load stretches.
 */
final class ProcessCpu {
  private ProcessCpu() {}

  static long nanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }
}
