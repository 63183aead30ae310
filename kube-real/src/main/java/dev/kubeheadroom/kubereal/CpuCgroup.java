package dev.kubeheadroom.kubereal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A container's CPU cgroup as the kernel holds it: the CFS quota and period the kubelet set
 * through containerd and runc, and the throttling counters. cgroup v1 ({@code cpu.cfs_quota_us},
 * {@code cpu.cfs_period_us}, {@code cpu.stat} with {@code throttled_time} in ns) and v2
 * ({@code cpu.max}, {@code cpu.stat} with {@code throttled_usec}) alike.
 *
 * @param dir the container's cgroup directory in the cpu hierarchy
 * @param v2 whether it is a cgroup v2 (unified) directory
 */
public record CpuCgroup(Path dir, boolean v2) {

  /** CFS bandwidth: {@code quotaMicros} per {@code periodMicros}; quota -1 means no limit. */
  public record Quota(long quotaMicros, long periodMicros) {
    /** The limit this quota enforces, in millicores ({@code -1} for none). */
    public long millicores() {
      return quotaMicros < 0 ? -1 : quotaMicros * 1000 / periodMicros;
    }
  }

  /**
   * {@code cpu.stat}'s CFS counters and the CPU time used, both in microseconds on either version
   * (v1 keeps the usage in the cpuacct hierarchy, {@code cpuacct.usage}, in ns).
   */
  public record Stat(long periods, long throttledPeriods, long throttledMicros, long usageMicros) {
    public Stat minus(Stat earlier) {
      return new Stat(periods - earlier.periods, throttledPeriods - earlier.throttledPeriods,
          throttledMicros - earlier.throttledMicros, usageMicros - earlier.usageMicros);
    }
  }

  private static final Path V1_CPU = Path.of("/sys/fs/cgroup/cpu");
  private static final Path V1_CPUACCT = Path.of("/sys/fs/cgroup/cpuacct");
  private static final Path V2 = Path.of("/sys/fs/cgroup");

  /**
   * The cgroup of the container with this runtime id (the part of the status' {@code containerID}
   * after {@code containerd://}), under the kubelet's {@code kubepods} tree (cgroupfs driver: the
   * leaf directory is named by the id).
   */
  public static Optional<CpuCgroup> ofContainer(String containerId) {
    boolean v2 = Files.isRegularFile(V2.resolve("cgroup.controllers"));
    Path kubepods = (v2 ? V2 : V1_CPU).resolve("kubepods");
    if (!Files.isDirectory(kubepods)) {
      return Optional.empty();
    }
    try (Stream<Path> dirs = Files.walk(kubepods)) {
      return dirs.filter(d -> d.getFileName().toString().equals(containerId)).findFirst()
          .map(d -> new CpuCgroup(d, v2));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Quota quota() {
    if (v2) {
      String[] max = read("cpu.max").strip().split("\\s+");
      return new Quota(max[0].equals("max") ? -1 : Long.parseLong(max[0]), Long.parseLong(max[1]));
    }
    return new Quota(Long.parseLong(read("cpu.cfs_quota_us").strip()),
        Long.parseLong(read("cpu.cfs_period_us").strip()));
  }

  public Stat stat() {
    Map<String, Long> s = read("cpu.stat").lines().map(l -> l.split("\\s+"))
        .collect(Collectors.toMap(f -> f[0], f -> Long.parseLong(f[1])));
    if (v2) {
      return new Stat(s.get("nr_periods"), s.get("nr_throttled"), s.get("throttled_usec"),
          s.get("usage_usec"));
    }
    Path acct = V1_CPUACCT.resolve(V1_CPU.relativize(dir)).resolve("cpuacct.usage");
    return new Stat(s.get("nr_periods"), s.get("nr_throttled"), s.get("throttled_time") / 1000,
        Long.parseLong(readFile(acct).strip()) / 1000);
  }

  private String read(String file) {
    return readFile(dir.resolve(file));
  }

  private static String readFile(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
