package dev.kubeheadroom.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** The calling thread's CPU time and heap allocation so far (-1 where the JVM cannot say). */
final class ThreadCost {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private ThreadCost() {}

  static long cpuNanos() {
    return THREADS.getCurrentThreadCpuTime();
  }

  static long allocatedBytes() {
    if (THREADS instanceof com.sun.management.ThreadMXBean sun) {
      return sun.getThreadAllocatedBytes(Thread.currentThread().getId());
    }
    return -1;
  }
}
