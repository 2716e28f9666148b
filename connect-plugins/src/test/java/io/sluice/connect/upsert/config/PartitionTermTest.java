package io.sluice.connect.upsert.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PartitionTermTest {
  @Test
  void parsesTheSupportedForms() {
    assertThat(PartitionTerm.parse("id"))
        .isEqualTo(new PartitionTerm(PartitionTerm.Transform.IDENTITY, "id", 0));
    assertThat(PartitionTerm.parse(" identity(id) "))
        .isEqualTo(new PartitionTerm(PartitionTerm.Transform.IDENTITY, "id", 0));
    assertThat(PartitionTerm.parse("BUCKET(id,8)"))
        .isEqualTo(new PartitionTerm(PartitionTerm.Transform.BUCKET, "id", 8));
    assertThat(PartitionTerm.parseAll("bucket(a, 4), b")).hasSize(2);
    assertThat(PartitionTerm.parseAll(" ")).isEmpty();
  }

  @Test
  void refusesTransformsThatSplitAKeyAcrossPartitionsAndBadWidths() {
    for (String bad :
        new String[] {"day(ts)", "bucket(id)", "bucket(id, 0)", "identity(id, 2)", "a b"}) {
      assertThatThrownBy(() -> PartitionTerm.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(
              "is not one of: col, identity(col), bucket(col, N), truncate(col, W)");
    }
  }
}
