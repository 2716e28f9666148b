package io.sluice.connect.upsert.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LongSetTest {
  @Test
  void answersAsAHashSetOfLongsThroughGrowth() {
    Random random = new Random(11);
    LongSet longs = new LongSet();
    Set<Long> reference = new HashSet<>();
    for (int i = 0; i < 300_000; i++) {
      long key =
          switch (i % 4) {
            case 0 -> random.nextLong();
            case 1 -> random.nextInt(50_000);
            case 2 -> -random.nextInt(50_000);
            default -> (long) random.nextInt(1_000) << 32;
          };
      assertThat(longs.add(key)).as("add %d", key).isEqualTo(reference.add(key));
    }
    assertThat(longs.size()).isEqualTo(reference.size());
    for (long key = -60_000; key < 60_000; key++) {
      assertThat(longs.contains(key)).as("contains %d", key).isEqualTo(reference.contains(key));
    }
  }

  @Test
  void theEdgesOfLongAreKeysLikeAnyOther() {
    LongSet longs = new LongSet();
    for (long key : new long[] {0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE}) {
      assertThat(longs.contains(key)).isFalse();
      assertThat(longs.add(key)).isTrue();
      assertThat(longs.add(key)).isFalse();
      assertThat(longs.contains(key)).isTrue();
    }
    assertThat(longs.size()).isEqualTo(4);
  }
}
