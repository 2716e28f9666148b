package io.sluice.lake;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class IcebergRowsTest {
  @Test
  void timestampsPrintWithMillisecondsOrMicrosecondsWhenThereAreAny() {
    assertThat(IcebergRows.text(LocalDateTime.of(2026, 1, 2, 3, 4, 5, 678_000_000)))
        .isEqualTo("2026-01-02 03:04:05.678");
    assertThat(IcebergRows.text(LocalDateTime.of(2026, 1, 2, 3, 4, 5)))
        .isEqualTo("2026-01-02 03:04:05.000");
    assertThat(IcebergRows.text(LocalDateTime.of(2026, 1, 2, 3, 4, 5, 678_901_000)))
        .isEqualTo("2026-01-02 03:04:05.678901");
    assertThat(
            IcebergRows.text(
                OffsetDateTime.of(2026, 1, 2, 5, 4, 5, 1_000_000, ZoneOffset.ofHours(2))))
        .isEqualTo("2026-01-02 03:04:05.001Z");
  }

  @Test
  void otherValuesPrintAsAUserReadsThem() {
    assertThat(IcebergRows.text(null)).isEqualTo("null");
    assertThat(IcebergRows.text(42L)).isEqualTo("42");
    assertThat(IcebergRows.text("PAID")).isEqualTo("PAID");
    assertThat(IcebergRows.text(new BigDecimal("1E+3"))).isEqualTo("1000");
    assertThat(IcebergRows.text(LocalDate.of(2026, 1, 3))).isEqualTo("2026-01-03");
    assertThat(IcebergRows.text(ByteBuffer.wrap("hi".getBytes(StandardCharsets.UTF_8))))
        .isEqualTo("aGk=");
    assertThat(IcebergRows.text(List.of(1, 2))).isEqualTo("[1,2]");
    assertThat(IcebergRows.text(Map.of("k", "v"))).isEqualTo("{\"k\":\"v\"}");
  }

  @Test
  void aRowBecomesAJsonObjectInSchemaOrderWithStructsNested() {
    Types.StructType kafka =
        Types.StructType.of(
            Types.NestedField.required(4, "partition", Types.IntegerType.get()),
            Types.NestedField.required(5, "offset", Types.LongType.get()));
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "order_id", Types.LongType.get()),
            Types.NestedField.optional(2, "updated_at", Types.TimestampType.withoutZone()),
            Types.NestedField.optional(3, "_kafka_metadata", kafka));
    Record metadata = GenericRecord.create(kafka);
    metadata.setField("partition", 2);
    metadata.setField("offset", 17L);
    Record row = GenericRecord.create(schema);
    row.setField("order_id", 7L);
    row.setField("updated_at", LocalDateTime.of(2026, 1, 1, 0, 0, 0, 5_000_000));
    row.setField("_kafka_metadata", metadata);

    assertThat(IcebergRows.toJson(row).toString())
        .isEqualTo(
            "{\"order_id\":7,\"updated_at\":\"2026-01-01 00:00:00.005\","
                + "\"_kafka_metadata\":{\"partition\":2,\"offset\":17}}");
    assertThat(IcebergRows.text(metadata)).isEqualTo("{\"partition\":2,\"offset\":17}");
  }
}
