package io.sluice.connect.upsert.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

/** Connect and Debezium types become the Iceberg columns and values a user expects. */
class TypeMappingTest {
  private static final Schema KEY = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();

  private static Schema named(Schema.Type type, String name) {
    return new SchemaBuilder(type).name(name).optional().build();
  }

  private static final Schema ROW =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("small", Schema.OPTIONAL_INT16_SCHEMA)
          .field("flag", Schema.OPTIONAL_BOOLEAN_SCHEMA)
          .field("ratio", Schema.OPTIONAL_FLOAT32_SCHEMA)
          .field("score", Schema.OPTIONAL_FLOAT64_SCHEMA)
          .field("payload", Schema.OPTIONAL_BYTES_SCHEMA)
          .field("created", named(Schema.Type.INT64, "io.debezium.time.Timestamp"))
          .field("created_us", named(Schema.Type.INT64, "io.debezium.time.MicroTimestamp"))
          .field("created_ns", named(Schema.Type.INT64, "io.debezium.time.NanoTimestamp"))
          .field("created_tz", named(Schema.Type.STRING, "io.debezium.time.ZonedTimestamp"))
          .field("day", named(Schema.Type.INT32, "io.debezium.time.Date"))
          .field("at", named(Schema.Type.INT32, "io.debezium.time.Time"))
          .field("at_us", named(Schema.Type.INT64, "io.debezium.time.MicroTime"))
          .field("at_ns", named(Schema.Type.INT64, "io.debezium.time.NanoTime"))
          .field(
              "amount",
              Decimal.builder(2).parameter("connect.decimal.precision", "10").optional().build())
          .field("c_date", org.apache.kafka.connect.data.Date.builder().optional().build())
          .field("c_time", Time.builder().optional().build())
          .field("c_ts", Timestamp.builder().optional().build())
          .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
          .field(
              "attrs",
              SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_INT32_SCHEMA)
                  .optional()
                  .build())
          .field(
              "address",
              SchemaBuilder.struct()
                  .optional()
                  .field("city", Schema.OPTIONAL_STRING_SCHEMA)
                  .build())
          .build();

  @Test
  void columnsGetTheSemanticIcebergTypes() {
    org.apache.iceberg.Schema schema = IcebergSchemas.tableSchema(ROW, KEY, null);
    assertThat(type(schema, "id")).isEqualTo(Types.LongType.get());
    assertThat(schema.findField("id").isRequired()).isTrue();
    assertThat(schema.identifierFieldNames()).containsExactly("id");
    assertThat(type(schema, "small")).isEqualTo(Types.IntegerType.get());
    assertThat(type(schema, "ratio")).isEqualTo(Types.FloatType.get());
    assertThat(type(schema, "payload")).isEqualTo(Types.BinaryType.get());
    assertThat(type(schema, "created")).isEqualTo(Types.TimestampType.withoutZone());
    assertThat(type(schema, "created_us")).isEqualTo(Types.TimestampType.withoutZone());
    assertThat(type(schema, "created_ns")).isEqualTo(Types.TimestampType.withoutZone());
    assertThat(type(schema, "created_tz")).isEqualTo(Types.TimestampType.withZone());
    assertThat(type(schema, "day")).isEqualTo(Types.DateType.get());
    assertThat(type(schema, "at")).isEqualTo(Types.TimeType.get());
    assertThat(type(schema, "at_us")).isEqualTo(Types.TimeType.get());
    assertThat(type(schema, "at_ns")).isEqualTo(Types.TimeType.get());
    assertThat(type(schema, "amount")).isEqualTo(Types.DecimalType.of(10, 2));
    assertThat(type(schema, "c_date")).isEqualTo(Types.DateType.get());
    assertThat(type(schema, "c_time")).isEqualTo(Types.TimeType.get());
    assertThat(type(schema, "c_ts")).isEqualTo(Types.TimestampType.withoutZone());
    assertThat(type(schema, "tags").isListType()).isTrue();
    assertThat(type(schema, "attrs").isMapType()).isTrue();
    assertThat(schema.findType("address.city")).isEqualTo(Types.StringType.get());
    assertThat(schema.findField("customer")).isNull();
    assertThat(schema.columns().stream().filter(c -> !c.name().equals("id")))
        .allMatch(Types.NestedField::isOptional);
  }

  @Test
  void valuesReadBackAsDatesTimesAndTimestampsNotNumbers() {
    long millis = 1_700_000_123_456L; // a DATETIME(3) value as Debezium sends it
    Struct row =
        new Struct(ROW)
            .put("id", 1L)
            .put("small", (short) 3)
            .put("payload", new byte[] {1, 2})
            .put("created", millis)
            .put("created_us", millis * 1_000 + 7)
            .put("created_ns", millis * 1_000_000 + 7)
            .put("created_tz", "2023-11-14T22:15:23.456Z")
            .put("day", 19_675)
            .put("at", 3_600_000 + 1)
            .put("at_us", 3_600_000_000L + 1)
            .put("at_ns", 3_600_000_000_000L + 1)
            .put("amount", new BigDecimal("12.30"))
            .put("c_date", new Date(19_675L * 86_400_000L))
            .put("c_time", new Date(61_000))
            .put("c_ts", new Date(millis))
            .put("tags", List.of("a", "b"))
            .put("attrs", Map.of("k", 1))
            .put("address", new Struct(ROW.field("address").schema()).put("city", "Lyon"));
    Record record = convert(row);
    LocalDateTime expected = LocalDateTime.of(2023, 11, 14, 22, 15, 23, 456_000_000);
    assertThat(record.getField("created")).isEqualTo(expected);
    assertThat(record.getField("created_us")).isEqualTo(expected.plusNanos(7_000));
    assertThat(record.getField("created_ns")).isEqualTo(expected.plusNanos(7));
    assertThat(record.getField("created_tz"))
        .isEqualTo(OffsetDateTime.of(expected, ZoneOffset.UTC));
    assertThat(record.getField("c_ts")).isEqualTo(expected);
    assertThat(record.getField("day")).isEqualTo(LocalDate.of(2023, 11, 14));
    assertThat(record.getField("c_date")).isEqualTo(LocalDate.of(2023, 11, 14));
    assertThat(record.getField("at")).isEqualTo(LocalTime.of(1, 0, 0, 1_000_000));
    assertThat(record.getField("at_us")).isEqualTo(LocalTime.of(1, 0, 0, 1_000));
    assertThat(record.getField("at_ns")).isEqualTo(LocalTime.of(1, 0, 0, 1));
    assertThat(record.getField("c_time")).isEqualTo(LocalTime.of(0, 1, 1));
    assertThat(record.getField("amount")).isEqualTo(new BigDecimal("12.30"));
    assertThat(record.getField("small")).isEqualTo(3);
    assertThat(record.getField("payload")).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2}));
    assertThat(record.getField("tags")).isEqualTo(List.of("a", "b"));
    assertThat(record.getField("attrs")).isEqualTo(Map.of("k", 1));
    assertThat(((Record) record.getField("address")).getField("city")).isEqualTo("Lyon");
    assertThat(record.getField("score")).isNull();
  }

  @Test
  void narrowerValuesAreWidenedToTheColumn() {
    org.apache.iceberg.Schema table =
        new org.apache.iceberg.Schema(
            List.of(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "n", Types.LongType.get()),
                Types.NestedField.optional(3, "x", Types.DoubleType.get()),
                Types.NestedField.optional(4, "d", Types.DecimalType.of(12, 4))),
            java.util.Set.of(1));
    Schema narrow =
        SchemaBuilder.struct()
            .field("id", Schema.INT32_SCHEMA)
            .field("n", Schema.OPTIONAL_INT32_SCHEMA)
            .field("x", Schema.OPTIONAL_FLOAT32_SCHEMA)
            .field("d", Decimal.builder(2).optional().build())
            .build();
    Record record =
        new RecordConverter(table)
            .row(
                new Struct(narrow)
                    .put("id", 1)
                    .put("n", 5)
                    .put("x", 1.5f)
                    .put("d", new BigDecimal("1.25")),
                new Struct(KEY).put("id", 1L),
                null);
    assertThat(record.getField("id")).isEqualTo(1L);
    assertThat(record.getField("n")).isEqualTo(5L);
    assertThat(record.getField("x")).isEqualTo(1.5d);
    assertThat(record.getField("d")).isEqualTo(new BigDecimal("1.2500"));
  }

  @Test
  void valuesThatWouldLoseInformationFailNamingTheColumn() {
    org.apache.iceberg.Schema table =
        new org.apache.iceberg.Schema(
            List.of(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "d", Types.DecimalType.of(5, 1))),
            java.util.Set.of(1));
    Schema row =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("d", Decimal.builder(2).optional().build())
            .build();
    RecordConverter converter = new RecordConverter(table);
    assertThatThrownBy(
            () ->
                converter.row(
                    new Struct(row).put("id", 1L).put("d", new BigDecimal("1.25")),
                    new Struct(KEY).put("id", 1L),
                    null))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("column d is decimal(5, 1): a value of scale 2 does not fit");
  }

  @Test
  void excludedAndUnknownFields() {
    Schema withOp =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("__op", Schema.STRING_SCHEMA)
            .build();
    org.apache.iceberg.Schema schema = IcebergSchemas.tableSchema(withOp, KEY, "__op");
    assertThat(schema.findField("__op")).isNull();
    RecordConverter converter = new RecordConverter(schema);
    assertThat(
            converter
                .row(
                    new Struct(withOp).put("id", 2L).put("__op", "u"),
                    new Struct(KEY).put("id", 2L),
                    "__op")
                .getField("id"))
        .isEqualTo(2L);
    assertThatThrownBy(
            () ->
                converter.row(
                    new Struct(withOp).put("id", 2L).put("__op", "u"),
                    new Struct(KEY).put("id", 2L),
                    null))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("field __op is not a column of the table");
  }

  @Test
  void keyColumnsMissingFromTheRowComeFromTheKey() {
    Schema row = SchemaBuilder.struct().field("customer", Schema.OPTIONAL_STRING_SCHEMA).build();
    org.apache.iceberg.Schema schema = IcebergSchemas.tableSchema(row, KEY, null);
    assertThat(schema.identifierFieldNames()).containsExactly("id");
    Record record =
        new RecordConverter(schema)
            .row(new Struct(row).put("customer", "c"), new Struct(KEY).put("id", 42L), null);
    assertThat(record.getField("id")).isEqualTo(42L);
  }

  @Test
  void floatingPointKeysAreRefused() {
    Schema key = SchemaBuilder.struct().field("x", Schema.FLOAT64_SCHEMA).build();
    assertThatThrownBy(() -> IcebergSchemas.tableSchema(key, key, null))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("primary-key column x has type double");
  }

  @Test
  void keyRecordsHoldOnlyTheKey() {
    org.apache.iceberg.Schema schema = IcebergSchemas.tableSchema(ROW, KEY, null);
    RecordConverter converter = new RecordConverter(schema);
    assertThat(converter.keySchema().columns())
        .extracting(Types.NestedField::name)
        .containsExactly("id");
    assertThat(converter.key(new Struct(KEY).put("id", 3L)).getField("id")).isEqualTo(3L);
    Record asRow = converter.keyAsRow(new Struct(KEY).put("id", 3L));
    assertThat(asRow.getField("id")).isEqualTo(3L);
    assertThat(asRow.getField("small")).isNull();
  }

  private static Record convert(Struct row) {
    org.apache.iceberg.Schema schema = IcebergSchemas.tableSchema(ROW, KEY, null);
    return new RecordConverter(schema)
        .row(row, new Struct(KEY).put("id", row.getInt64("id")), null);
  }

  private static org.apache.iceberg.types.Type type(org.apache.iceberg.Schema schema, String name) {
    return schema.findField(name).type();
  }
}
