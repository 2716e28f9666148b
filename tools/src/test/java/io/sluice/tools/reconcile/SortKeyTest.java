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
}
