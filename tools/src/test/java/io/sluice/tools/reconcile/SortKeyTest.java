package io.sluice.tools.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SortKeyTest {

  @Test
  void numbersSortNumericallyWhateverTheirJavaType() {
    List<SortKey> keys =
        new ArrayList<>(List.of(SortKey.of(10L), SortKey.of(9), SortKey.of(new BigDecimal("9.5"))));
    keys.sort(null);

    assertThat(keys)
        .containsExactly(SortKey.of(9L), SortKey.of(new BigDecimal("9.5")), SortKey.of(10));
    assertThat(SortKey.of(5)).isEqualTo(SortKey.of(5L)).hasSameHashCodeAs(SortKey.of(5L));
  }

  @Test
  void compositeKeysCompareColumnByColumn() {
    assertThat(SortKey.of(1L, "b")).isGreaterThan(SortKey.of(1L, "a"));
    assertThat(SortKey.of(1L, "z")).isLessThan(SortKey.of(2L, "a"));
  }

  @Test
  void compositeKeysEqualOnlyWhenEveryColumnIsEqual() {
    assertThat(SortKey.of(7L, 1L)).isNotEqualTo(SortKey.of(7L, 2L));
    assertThat(SortKey.of(7L, 2)).isEqualTo(SortKey.of(7, 2L)).hasSameHashCodeAs(SortKey.of(7, 2L));
    // The second column decides only when the first ties: (1, 10) < (2, 1).
    assertThat(SortKey.of(1L, 10L)).isLessThan(SortKey.of(2L, 1L));
    assertThat(SortKey.of(1L, 10L)).isGreaterThan(SortKey.of(1L, 9L));
  }
}
