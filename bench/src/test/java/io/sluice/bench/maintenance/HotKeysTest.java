package io.sluice.bench.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class HotKeysTest {
  @Test
  void onePercentOfTenThousandKeysAreHotSpreadEvenlyOverTheIds() {
    HotKeys hot = new HotKeys(10_000, 1, 90, 42);

    assertThat(hot.hotKeys()).isEqualTo(100);
    long[] hotIds = LongStream.rangeClosed(1, 10_000).filter(hot::isHot).toArray();
    assertThat(hotIds).hasSize(100);
    assertThat(hotIds[0]).isEqualTo(1);
    assertThat(hotIds[1]).isEqualTo(101);
    assertThat(hotIds[99]).isEqualTo(9_901);
    assertThat(hot.isHot(0)).isFalse();
    assertThat(hot.isHot(10_001)).isFalse();
  }

  @Test
  void theHotKeysTakeTheirShareOfTheDrawsAndTheRestGoesToTheOthers() {
    HotKeys hot = new HotKeys(10_000, 1, 90, 7);
    Set<Long> hotDrawn = new HashSet<>();
    Set<Long> coldDrawn = new HashSet<>();
    long hotCount = 0;

    for (int i = 0; i < 100_000; i++) {
      long id = hot.next();
      assertThat(id).isBetween(1L, 10_000L);
      if (hot.isHot(id)) {
        hotCount++;
        hotDrawn.add(id);
      } else {
        coldDrawn.add(id);
      }
    }

    assertThat(hot.hotDraws()).isEqualTo(hotCount);
    assertThat(hotCount).as("90%% of 100,000, give or take").isBetween(89_400L, 90_600L);
    assertThat(hotDrawn).as("every hot key drawn").hasSize(100);
    assertThat(coldDrawn).as("most cold keys drawn about once").hasSizeGreaterThan(6_000);
  }

  @Test
  void theSameSeedDrawsTheSameKeysAndAnotherSeedOthers() {
    assertThat(draws(new HotKeys(1_000, 1, 90, 3), 500))
        .isEqualTo(draws(new HotKeys(1_000, 1, 90, 3), 500))
        .isNotEqualTo(draws(new HotKeys(1_000, 1, 90, 4), 500));
  }

  @Test
  void aSmallTableHasOneHotKeyAndOneKeyIsHotAlone() {
    assertThat(new HotKeys(10, 1, 90, 1).hotKeys()).isEqualTo(1);
    HotKeys single = new HotKeys(1, 50, 0, 1);
    assertThat(single.hotKeys()).isEqualTo(1);
    assertThat(draws(single, 10)).containsOnly(1L);
    HotKeys none = new HotKeys(100, 10, 0, 1);
    assertThat(LongStream.of(draws(none, 1_000)).noneMatch(none::isHot))
        .as("0%% to the hot keys")
        .isTrue();
  }

  @Test
  void badSharesAreRefused() {
    assertThatThrownBy(() -> new HotKeys(100, 0, 90, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("hot percent must be more than 0 and less than 100, got 0.0");
    assertThatThrownBy(() -> new HotKeys(100, 100, 90, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("hot percent must be more than 0 and less than 100, got 100.0");
    assertThatThrownBy(() -> new HotKeys(100, 1, 101, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("hot draws percent must be between 0 and 100, got 101");
  }

  private static long[] draws(HotKeys hot, int n) {
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = hot.next();
    }
    return ids;
  }
}
