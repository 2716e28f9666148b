package io.sluice.connect.guard;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;

class TableFitsTest {
  private static final String TABLE = "cdc_lab.orders_changelog";
  private static final long INTERVAL_MS = 1_000;

  private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
  private final List<TableIdentifier> loads = new ArrayList<>();

  @Test
  void aRecordThatDoesNotFitReloadsTheTableAndFitsWhatItBecame() {
    // The operator widens price to decimal(12, 2) after the guard cached decimal(10, 2).
    List<org.apache.iceberg.Schema> versions =
        new ArrayList<>(
            List.of(table(Types.DecimalType.of(10, 2)), table(Types.DecimalType.of(12, 2))));
    TableFits fits =
        fits(() -> Optional.of(versions.size() > 1 ? versions.remove(0) : versions.get(0)));
    assertThat(fits.check(TABLE, row(10))).isNull();
    nanos.addAndGet(INTERVAL_MS * 1_000_000);

    assertThat(fits.check(TABLE, row(12))).isNull();
    assertThat(loads).hasSize(2).containsOnly(TableIdentifier.of("cdc_lab", "orders_changelog"));
  }

  @Test
  void withinTheIntervalARecordIsRefusedWithoutAnotherLoad() {
    TableFits fits = fits(() -> Optional.of(table(Types.DecimalType.of(10, 2))));
    assertThat(fits.check(TABLE, row(10))).isNull();

    for (int i = 0; i < 3; i++) {
      assertThat(fits.check(TABLE, row(12))).extracting(Misfit::column).isEqualTo("price");
    }
    assertThat(loads).hasSize(1);

    nanos.addAndGet(INTERVAL_MS * 1_000_000);
    assertThat(fits.check(TABLE, row(12))).extracting(Misfit::column).isEqualTo("price");
    assertThat(loads).as("reloaded once the interval passed, before refusing").hasSize(2);
  }

  @Test
  void aTableThatDoesNotExistIsLookedUpAgainOnlyAfterTheInterval() {
    List<Optional<org.apache.iceberg.Schema>> answers =
        new ArrayList<>(List.of(Optional.empty(), Optional.of(table(Types.LongType.get()))));
    TableFits fits = fits(() -> answers.size() > 1 ? answers.remove(0) : answers.get(0));

    assertThat(fits.check(TABLE, row(10))).isNull();
    assertThat(fits.check(TABLE, row(10))).isNull();
    assertThat(loads).hasSize(1);

    nanos.addAndGet(INTERVAL_MS * 1_000_000);
    assertThat(fits.check(TABLE, row(10)))
        .extracting(Misfit::column, Misfit::tableType, Misfit::recordType)
        .containsExactly("price", "long", "decimal(10, 2)");
    assertThat(loads).hasSize(2);
  }

  @Test
  void aCatalogThatCannotAnswerIsRetriedAtTheNextRecord() {
    List<RuntimeException> failures =
        new ArrayList<>(List.of(new RetriableException("catalog down")));
    TableFits fits =
        fits(
            () -> {
              if (!failures.isEmpty()) {
                throw failures.remove(0);
              }
              return Optional.of(table(Types.DecimalType.of(10, 2)));
            });

    assertThatThrownBy(() -> fits.check(TABLE, row(10)))
        .isInstanceOf(RetriableException.class)
        .hasMessage("catalog down");
    assertThat(fits.check(TABLE, row(10))).isNull();
    assertThat(loads).hasSize(2);
  }

  private TableFits fits(Supplier<Optional<org.apache.iceberg.Schema>> answer) {
    return new TableFits(
        id -> {
          loads.add(id);
          return answer.get();
        },
        true,
        INTERVAL_MS,
        nanos::get);
  }

  private static org.apache.iceberg.Schema table(org.apache.iceberg.types.Type price) {
    return new org.apache.iceberg.Schema(
        required(1, "id", Types.IntegerType.get()), optional(2, "price", price));
  }

  private static Schema row(int precision) {
    return SchemaBuilder.struct()
        .field("id", Schema.INT32_SCHEMA)
        .field(
            "price",
            Decimal.builder(2)
                .parameter(SinkTypes.DECIMAL_PRECISION_PARAMETER, String.valueOf(precision))
                .optional()
                .build())
        .build();
  }
}
