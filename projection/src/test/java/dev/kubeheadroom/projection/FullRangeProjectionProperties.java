package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import io.fabric8.kubernetes.api.model.Container;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The API server stores any CPU quantity, capping what a 64-bit value cannot hold (apimachinery
 * pkg/api/resource/quantity.go). Over that whole range, and past it, the projection gives a
 * snapshot, never an exception, and the pod's booked request saturates instead of overflowing.
 */
class FullRangeProjectionProperties {

  @Property
  void anyNonNegativeMillicoreCountParsesToItselfOrTheCap(@ForAll("milli") BigInteger milli) {
    long expected = milli.min(BigInteger.valueOf(Long.MAX_VALUE)).longValueExact();
    assertThat(CpuQuantity.parseMilli(milli + "m")).isEqualTo(expected);
  }

  @Property
  void aPodWithAnyRequestsProjectsAndItsRequestIsTheSaturatedSum(
      @ForAll("requestLists") List<BigInteger> requestsMilli) {
    // given app containers with those CPU requests
    List<Container> containers = new ArrayList<>();
    for (int i = 0; i < requestsMilli.size(); i++) {
      containers.add(PodProjectionTest.container("c" + i, Map.of("cpu", requestsMilli.get(i) + "m"), Map.of()));
    }
    // when
    PodSnapshot pod = PodProjectionTest.project(PodProjectionTest.pod(containers.toArray(Container[]::new)).build());
    // then every container keeps its (capped) request and the pod's is their sum, capped
    BigInteger max = BigInteger.valueOf(Long.MAX_VALUE);
    BigInteger sum = BigInteger.ZERO;
    for (int i = 0; i < requestsMilli.size(); i++) {
      long capped = requestsMilli.get(i).min(max).longValueExact();
      assertThat(pod.containers().get(i)).extracting(ContainerSnapshot::cpuRequestMilli).isEqualTo(capped);
      sum = sum.add(BigInteger.valueOf(capped));
    }
    assertThat(pod.effectiveRequestMilli()).isEqualTo(sum.min(max).longValueExact());
  }

  @Provide
  Arbitrary<BigInteger> milli() {
    return Arbitraries.frequencyOf(
        Tuple.of(2, Arbitraries.bigIntegers().between(BigInteger.ZERO, BigInteger.valueOf(1_000_000))),
        Tuple.of(3, Arbitraries.bigIntegers().between(BigInteger.ZERO, BigInteger.valueOf(Long.MAX_VALUE))),
        Tuple.of(2, Arbitraries.bigIntegers().between(BigInteger.valueOf(Long.MAX_VALUE - 1000),
            BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.valueOf(1000)))),
        Tuple.of(1, Arbitraries.bigIntegers().between(BigInteger.ZERO, BigInteger.TEN.pow(40))));
  }

  @Provide
  Arbitrary<List<BigInteger>> requestLists() {
    return milli().list().ofMinSize(1).ofMaxSize(5);
  }
}
