package io.sluice.connect.upsert.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class SchemaEvolutionTest {
  private static final Schema TABLE =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "qty", Types.IntegerType.get()),
              Types.NestedField.optional(3, "price", Types.DecimalType.of(10, 2)),
              Types.NestedField.required(4, "note", Types.StringType.get()),
              Types.NestedField.optional(
                  5,
                  "address",
                  Types.StructType.of(
                      Types.NestedField.optional(6, "city", Types.StringType.get())))),
          Set.of(1));

  @Test
  void sameSchemaNeedsNothing() {
    assertThat(SchemaEvolution.changes(TABLE, TABLE)).isEmpty();
  }

  @Test
  void newColumnsAreAddedTopLevelAndNested() {
    Schema record =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(9, "status", Types.StringType.get()),
            Types.NestedField.optional(
                5,
                "address",
                Types.StructType.of(
                    Types.NestedField.optional(10, "zip", Types.StringType.get()))));
    assertThat(SchemaEvolution.changes(TABLE, record))
        .containsExactly(
            new SchemaEvolution.AddColumn(null, "status", Types.StringType.get()),
            new SchemaEvolution.AddColumn("address", "zip", Types.StringType.get()));
  }

  @Test
  void widerTypesWidenTheColumn() {
    Schema record =
        new Schema(
            Types.NestedField.optional(2, "qty", Types.LongType.get()),
            Types.NestedField.optional(3, "price", Types.DecimalType.of(14, 2)));
    assertThat(SchemaEvolution.changes(TABLE, record))
        .containsExactly(
            new SchemaEvolution.WidenColumn("qty", Types.LongType.get()),
            new SchemaEvolution.WidenColumn("price", Types.DecimalType.of(14, 2)));
  }

  @Test
  void narrowerTypesNeedNoChange() {
    Schema record =
        new Schema(
            Types.NestedField.required(1, "id", Types.IntegerType.get()),
            Types.NestedField.optional(3, "price", Types.DecimalType.of(6, 1)));
    assertThat(SchemaEvolution.changes(TABLE, record)).isEmpty();
  }

  @Test
  void optionalRecordFieldRelaxesARequiredNonKeyColumn() {
    Schema record =
        new Schema(
            Types.NestedField.optional(1, "id", Types.LongType.get()),
            Types.NestedField.optional(4, "note", Types.StringType.get()));
    assertThat(SchemaEvolution.changes(TABLE, record))
        .containsExactly(new SchemaEvolution.MakeOptional("note"));
  }

  @Test
  void incompatibleTypeFailsNamingTheColumn() {
    Schema record = new Schema(Types.NestedField.optional(2, "qty", Types.StringType.get()));
    assertThatThrownBy(() -> SchemaEvolution.changes(TABLE, record))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("column qty is int in the table but string in the record");
  }

  @Test
  void decimalScaleChangeThatWouldLoseDigitsFails() {
    Schema record = new Schema(Types.NestedField.optional(3, "price", Types.DecimalType.of(10, 4)));
    assertThatThrownBy(() -> SchemaEvolution.changes(TABLE, record))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("column price is decimal(10, 2)");
  }
}
