package io.sluice.connect.guard;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.Consumer;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.api.Test;

class TableFitTest {
  /** A changelog table as the Apache sink creates it from the first row (id NOT NULL). */
  private static final Types.StructType ORDERS =
      Types.StructType.of(
          required(1, "id", Types.IntegerType.get()),
          optional(2, "customer", Types.StringType.get()),
          optional(3, "amount_cents", Types.LongType.get()),
          optional(4, "qty", Types.IntegerType.get()),
          optional(5, "ratio", Types.FloatType.get()),
          optional(6, "price", Types.DecimalType.of(10, 2)),
          optional(7, "created_us", Types.LongType.get()),
          required(
              8,
              "_cdc",
              Types.StructType.of(
                  required(9, "op", Types.StringType.get()),
                  required(10, "ts", Types.TimestampType.withZone()),
                  required(
                      11,
                      "key",
                      Types.StructType.of(required(12, "id", Types.IntegerType.get()))))),
          optional(13, "tags", Types.ListType.ofOptional(14, Types.StringType.get())),
          optional(
              15,
              "attrs",
              Types.MapType.ofOptional(16, 17, Types.StringType.get(), Types.LongType.get())));

  @Test
  void aRowOfTheTablesOwnTypesFitsAgainAndAgain() {
    TableFit fit = new TableFit(ORDERS, true);
    Schema row = row(Schema.OPTIONAL_INT64_SCHEMA);

    assertThat(fit.check(row)).isNull();
    assertThat(fit.check(row)).isNull();
    // The Apache transforms build the top level and _cdc anew for every record.
    assertThat(fit.check(row(Schema.OPTIONAL_INT64_SCHEMA))).isNull();
  }

  @Test
  void aStringForALongColumnIsRefusedNamingTheColumnAndBothTypes() {
    Misfit misfit = new TableFit(ORDERS, true).check(row(Schema.OPTIONAL_STRING_SCHEMA));

    assertThat(misfit)
        .isEqualTo(
            new Misfit(
                "amount_cents", "long", "string", "Iceberg cannot change one into the other"));
    assertThat(misfit.describe())
        .isEqualTo(
            "column amount_cents is long in the table but string in the record: Iceberg cannot"
                + " change one into the other");
  }

  @Test
  void narrowerTypesFitAndWiderOnesOnlyWhenTheSinkWidensTheColumn() {
    Schema narrower =
        rowWith(
            b ->
                b.field("amount_cents", Schema.OPTIONAL_INT32_SCHEMA)
                    .field("qty", Schema.OPTIONAL_INT16_SCHEMA));
    Schema wider =
        rowWith(
            b ->
                b.field("qty", Schema.OPTIONAL_INT64_SCHEMA)
                    .field("ratio", Schema.OPTIONAL_FLOAT64_SCHEMA));

    assertThat(new TableFit(ORDERS, true).check(narrower)).isNull();
    assertThat(new TableFit(ORDERS, false).check(narrower)).isNull();
    assertThat(new TableFit(ORDERS, true).check(wider)).isNull();
    assertThat(new TableFit(ORDERS, false).check(wider))
        .isEqualTo(new Misfit("qty", "int", "long", "Iceberg cannot change one into the other"));
  }

  @Test
  void aDecimalFitsWithTheColumnsScaleAndNoMoreDigits() {
    TableFit fit = new TableFit(ORDERS, true);

    assertThat(fit.check(rowWith(b -> b.field("price", decimal(10, 2))))).isNull();
    assertThat(fit.check(rowWith(b -> b.field("price", decimal(8, 2))))).isNull();
    assertThat(fit.check(rowWith(b -> b.field("price", decimal(12, 2)))))
        .isEqualTo(
            new Misfit(
                "price",
                "decimal(10, 2)",
                "decimal(12, 2)",
                "its values may have more digits than the column holds, and the sink does not"
                    + " widen it: widen the column to decimal(12, 2)"));
    assertThat(fit.check(rowWith(b -> b.field("price", decimal(10, 3)))))
        .isEqualTo(
            new Misfit(
                "price",
                "decimal(10, 2)",
                "decimal(10, 3)",
                "Iceberg cannot change a decimal's scale"));
  }

  @Test
  void typesAreTheApacheSinksDebeziumTimesStayLongsConnectTimestampsDoNot() {
    Schema micros = SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").optional();
    assertThat(new TableFit(ORDERS, true).check(rowWith(b -> b.field("created_us", micros))))
        .isNull();
    assertThat(
            new TableFit(ORDERS, true)
                .check(rowWith(b -> b.field("created_us", Timestamp.builder().optional()))))
        .extracting(Misfit::column, Misfit::tableType, Misfit::recordType)
        .containsExactly("created_us", "long", "timestamptz");
  }

  @Test
  void aNewFieldFitsAndFixesTheTypeALaterRecordMustBring() {
    TableFit fit = new TableFit(ORDERS, true);
    Schema v2 = rowWith(b -> b.field("note", Schema.OPTIONAL_INT64_SCHEMA));
    Schema v3 = rowWith(b -> b.field("note", Schema.OPTIONAL_STRING_SCHEMA));

    assertThat(fit.check(v2)).isNull();
    // The sink adds note as long for v2's record; v3's string would fail it.
    assertThat(fit.check(v3))
        .isEqualTo(
            new Misfit("note", "long", "string", "Iceberg cannot change one into the other"));
    assertThat(fit.check(rowWith(b -> b.field("note", Schema.OPTIONAL_INT32_SCHEMA)))).isNull();
  }

  @Test
  void aRefusedRecordAddsNoColumn() {
    TableFit fit = new TableFit(ORDERS, true);
    Schema refused =
        rowWith(
            b ->
                b.field("note", Schema.OPTIONAL_STRING_SCHEMA)
                    .field("amount_cents", Schema.OPTIONAL_STRING_SCHEMA));

    assertThat(fit.check(refused)).extracting(Misfit::column).isEqualTo("amount_cents");
    assertThat(fit.check(rowWith(b -> b.field("note", Schema.OPTIONAL_INT64_SCHEMA)))).isNull();
  }

  @Test
  void aRequiredColumnNeedsItsFieldAndTakesAnOptionalOneOnlyWithEvolution() {
    Schema withoutId = rowWith(b -> b.field("amount_cents", Schema.OPTIONAL_INT64_SCHEMA), "id");
    assertThat(new TableFit(ORDERS, true).check(withoutId))
        .isEqualTo(
            new Misfit(
                "id",
                "int",
                "absent",
                "the column is required, so the write fails without it: make the column"
                    + " optional"));

    Schema optionalId = rowWith(b -> b.field("id", Schema.OPTIONAL_INT32_SCHEMA), "id");
    assertThat(new TableFit(ORDERS, true).check(optionalId)).isNull();
    assertThat(new TableFit(ORDERS, false).check(optionalId))
        .extracting(Misfit::column, Misfit::tableType, Misfit::recordType)
        .containsExactly("id", "int", "optional int");
  }

  @Test
  void nestedColumnsAreCheckedWithTheirPath() {
    TableFit fit = new TableFit(ORDERS, true);
    Schema stringKey = SchemaBuilder.struct().field("id", Schema.STRING_SCHEMA).build();
    Schema tags = SchemaBuilder.array(Schema.OPTIONAL_INT64_SCHEMA).optional().build();
    Schema attrs =
        SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_STRING_SCHEMA).optional().build();

    assertThat(fit.check(row(Schema.OPTIONAL_INT64_SCHEMA, stringKey)))
        .extracting(Misfit::column, Misfit::tableType, Misfit::recordType)
        .containsExactly("_cdc.key.id", "int", "string");
    assertThat(fit.check(rowWith(b -> b.field("tags", tags))))
        .extracting(Misfit::column, Misfit::tableType, Misfit::recordType)
        .containsExactly("tags.element", "string", "long");
    assertThat(fit.check(rowWith(b -> b.field("attrs", attrs))))
        .extracting(Misfit::column, Misfit::tableType, Misfit::recordType)
        .containsExactly("attrs.value", "long", "string");
  }

  @Test
  void aTableThatDoesNotExistTakesTheFirstRecordAndThenHoldsLaterOnesToIt() {
    TableFit fit = new TableFit(Types.StructType.of(), true);

    assertThat(fit.check(row(Schema.OPTIONAL_INT64_SCHEMA))).isNull();
    assertThat(fit.check(row(Schema.OPTIONAL_STRING_SCHEMA)))
        .extracting(Misfit::column, Misfit::tableType, Misfit::recordType)
        .containsExactly("amount_cents", "long", "string");

    // Loaded once the sink created it, the table's own columns decide.
    fit.columns(
        Types.StructType.of(
            required(1, "id", Types.IntegerType.get()),
            optional(2, "amount_cents", Types.StringType.get())));
    assertThat(fit.check(rowWith(b -> b.field("amount_cents", Schema.OPTIONAL_STRING_SCHEMA))))
        .isNull();
  }

  // --- rows as DebeziumTransform makes them ------------------------------------------------

  private static final Schema KEY = SchemaBuilder.struct().field("id", Schema.INT32_SCHEMA).build();

  private static Schema row(Schema amount) {
    return row(amount, KEY);
  }

  private static Schema row(Schema amount, Schema key) {
    return SchemaBuilder.struct()
        .field("id", Schema.INT32_SCHEMA)
        .field("customer", Schema.OPTIONAL_STRING_SCHEMA)
        .field("amount_cents", amount)
        .field("_cdc", cdc(key))
        .build();
  }

  /** {@code id, customer, _cdc} and the fields {@code extra} adds (replacing those it names). */
  private static Schema rowWith(Consumer<SchemaBuilder> extra, String... drop) {
    SchemaBuilder fields = SchemaBuilder.struct();
    extra.accept(fields);
    SchemaBuilder row = SchemaBuilder.struct();
    List<String> dropped = List.of(drop);
    for (String name : List.of("id", "customer")) {
      if (fields.field(name) == null && !dropped.contains(name)) {
        row.field(name, name.equals("id") ? Schema.INT32_SCHEMA : Schema.OPTIONAL_STRING_SCHEMA);
      }
    }
    fields.fields().forEach(f -> row.field(f.name(), f.schema()));
    row.field("_cdc", cdc(KEY));
    return row.build();
  }

  private static Schema cdc(Schema key) {
    return SchemaBuilder.struct()
        .field("op", Schema.STRING_SCHEMA)
        .field("ts", Timestamp.SCHEMA)
        .field("key", key)
        .build();
  }

  private static Schema decimal(int precision, int scale) {
    return Decimal.builder(scale)
        .parameter(SinkTypes.DECIMAL_PRECISION_PARAMETER, String.valueOf(precision))
        .optional()
        .build();
  }
}
