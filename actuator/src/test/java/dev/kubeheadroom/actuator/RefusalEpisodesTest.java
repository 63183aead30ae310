package dev.kubeheadroom.actuator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RefusalEpisodesTest {
  @Test
  void theFirstRefusalOpensAnEpisodeAndLaterOnesDoNotUntilItCloses() {
    RefusalEpisodes episodes = new RefusalEpisodes();
    assertThat(episodes.opens("a")).isTrue();
    assertThat(episodes.opens("a")).isFalse();
    assertThat(episodes.opens("b")).as("per pod").isTrue();
    episodes.close("a");
    assertThat(episodes.opens("a")).as("after an applied resize, a new episode").isTrue();
  }

  @Test
  void theLeastRecentlyRefusedPodIsForgottenFirstSoMemoryIsBounded() {
    RefusalEpisodes episodes = new RefusalEpisodes(2);
    episodes.opens("a");
    episodes.opens("b");
    episodes.opens("a"); // a is the most recent now
    episodes.opens("c"); // forgets b
    assertThat(episodes.opens("a")).isFalse();
    assertThat(episodes.opens("b")).as("forgotten: one more event, never fewer").isTrue();
  }
}
