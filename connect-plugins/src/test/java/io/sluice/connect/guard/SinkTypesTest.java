package io.sluice.connect.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.connect.IcebergSinkConfig;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.api.Test;

/**
 * {@link SinkTypes} against the Apache sink's own mapping ({@code SchemaUtils.toIcebergType},
 * package-private, called by reflection): when an Iceberg upgrade changes how the sink types its
 * columns, this fails, not the guard in production.
 */
class SinkTypesTest {
  @Test
  void everyConnectSchemaGetsTheTypeTheApacheSinkGivesIt() throws Exception {
    List<Schema> schemas =
        List.of(
            Schema.BOOLEAN_SCHEMA,
            Schema.BYTES_SCHEMA,
            Decimal.builder(2).parameter("connect.decimal.precision", "10").build(),
            Schema.INT8_SCHEMA,
            Schema.INT16_SCHEMA,
            Schema.INT32_SCHEMA,
            Date.SCHEMA,
            Time.SCHEMA,
            Schema.INT64_SCHEMA,
            Timestamp.SCHEMA,
            SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").build(),
            SchemaBuilder.int32().name("io.debezium.time.Date").build(),
            Schema.FLOAT32_SCHEMA,
            Schema.FLOAT64_SCHEMA,
            Schema.STRING_SCHEMA,
            SchemaBuilder.string().name("io.debezium.time.ZonedTimestamp").build(),
            SchemaBuilder.string().name("uuid").build(),
            SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).build(),
            SchemaBuilder.array(Schema.INT32_SCHEMA).build(),
            SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_INT64_SCHEMA).build(),
            SchemaBuilder.struct()
                .field("id", Schema.INT32_SCHEMA)
                .field("note", Schema.OPTIONAL_STRING_SCHEMA)
                .field("inner", SchemaBuilder.struct().field("x", Schema.FLOAT64_SCHEMA).build())
                .build());
    Method apache =
        Class.forName("org.apache.iceberg.connect.data.SchemaUtils")
            .getDeclaredMethod("toIcebergType", Schema.class, IcebergSinkConfig.class);
    apache.setAccessible(true);
    IcebergSinkConfig config =
        new IcebergSinkConfig(Map.of("iceberg.catalog.type", "rest", "iceberg.tables", "db.t"));

    for (Schema schema : schemas) {
      Type expected = (Type) apache.invoke(null, schema, config);
      assertThat(idFree(SinkTypes.of(schema)))
          .as("%s %s", schema.type(), schema.name())
          .isEqualTo(idFree(expected));
    }
  }

  @Test
  void aDecimalDeclaresItsAvroPrecisionOrIsUnbounded() {
    assertThat(
            SinkTypes.declaredPrecision(
                Decimal.builder(2).parameter("connect.decimal.precision", "12").build()))
        .isEqualTo(12);
    assertThat(SinkTypes.declaredPrecision(Decimal.schema(2))).isEqualTo(38);
  }

  /** The type with field ids assigned afresh in one order, so only the structure is compared. */
  private static Type idFree(Type type) {
    AtomicInteger ids = new AtomicInteger();
    return TypeUtil.assignFreshIds(type, ids::incrementAndGet);
  }
}
