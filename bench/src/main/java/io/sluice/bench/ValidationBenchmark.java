package io.sluice.bench;

import io.sluice.router.validate.RecordValidator;
import io.sluice.router.validate.ValidationResult;
import io.sluice.schema.testing.InMemorySchemaRegistryClient;
import io.sluice.stack.workload.OrderRow;
import io.sluice.stack.workload.OrdersAvro;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The router's validation hot path: {@link RecordValidator#validate} on a valid orders key and
 * Debezium envelope whose schemas are already cached, as for every record after a topic's first.
 * The registry lives in memory, so the figure is decoding and checks, not HTTP.
 *
 * <p>Run with {@code scripts/sluice bench validate}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ValidationBenchmark {
  static final String TOPIC = "broker.cdc_lab.orders";
  private static final int DISTINCT_RECORDS = 1024;

  private RecordValidator validator;
  private byte[][] keys;
  private byte[][] values;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    OrdersAvro orders = OrdersAvro.register(registry, TOPIC);
    validator = new RecordValidator(registry);
    // Distinct records (ids, strings, amounts) so the branch predictor cannot learn one record.
    keys = new byte[DISTINCT_RECORDS][];
    values = new byte[DISTINCT_RECORDS][];
    for (int i = 0; i < DISTINCT_RECORDS; i++) {
      OrderRow row = OrderRow.generate(i + 1, 42);
      keys[i] = orders.key(row.orderId());
      values[i] =
          i % 4 == 0
              ? orders.value(OrdersAvro.envelope("u", row, row.updated("PAID", i + 100_000)))
              : orders.created(row);
      ValidationResult result = validator.validate(TOPIC, keys[i], values[i]);
      if (result != ValidationResult.VALID) {
        throw new IllegalStateException("benchmark record " + i + " is not valid: " + result);
      }
    }
  }

  @Benchmark
  public ValidationResult validateOrderEnvelope() {
    int i = next;
    next = (i + 1) & (DISTINCT_RECORDS - 1);
    return validator.validate(TOPIC, keys[i], values[i]);
  }
}
