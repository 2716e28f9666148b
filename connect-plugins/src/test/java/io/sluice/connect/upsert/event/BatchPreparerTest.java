package io.sluice.connect.upsert.event;

import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class BatchPreparerTest {

  @Test
  void keepsTheLastEventOfEachKeyInPartitionOrder() {
    List<ChangeEvent> batch =
        BatchPreparer.prepare(
            List.of(
                upsert(0, 1, 1, "a"),
                upsert(0, 2, 2, "b"),
                upsert(0, 3, 1, "a2"),
                delete(0, 4, 2),
                upsert(0, 5, 1, "a3")));
    assertThat(batch).extracting(ChangeEvent::offset).containsExactly(4L, 5L);
    assertThat(batch.get(0).operation()).isEqualTo(Operation.DELETE);
    assertThat(batch.get(1).row().getString("customer")).isEqualTo("a3");
  }

  @Test
  void deleteThenCreateOfOneKeyIsOneUpsert() {
    List<ChangeEvent> batch =
        BatchPreparer.prepare(
            List.of(upsert(1, 10, 7, "x"), delete(1, 11, 7), upsert(1, 12, 7, "y")));
    assertThat(batch).hasSize(1);
    assertThat(batch.get(0).operation()).isEqualTo(Operation.UPSERT);
    assertThat(batch.get(0).row().getString("customer")).isEqualTo("y");
  }

  @Test
  void keysAreComparedByValueEvenForBytes() {
    Schema bytesKey = SchemaBuilder.struct().field("k", Schema.BYTES_SCHEMA).build();
    ChangeEvent first =
        new ChangeEvent(
            "t",
            0,
            1,
            SourceOp.DELETE,
            new Struct(bytesKey).put("k", new byte[] {1, 2}),
            null,
            ChangeEvent.NO_TIME);
    ChangeEvent second =
        new ChangeEvent(
            "t",
            0,
            2,
            SourceOp.DELETE,
            new Struct(bytesKey).put("k", new byte[] {1, 2}),
            null,
            ChangeEvent.NO_TIME);
    assertThat(BatchPreparer.prepare(List.of(first, second))).containsExactly(second);
  }

  @Test
  void differentKeysAllStay() {
    assertThat(BatchPreparer.prepare(List.of(upsert(0, 1, 1, "a"), upsert(1, 1, 2, "b"))))
        .hasSize(2);
  }

  private static ChangeEvent upsert(int partition, long offset, int id, String customer) {
    return new ChangeEvent(
        "t", partition, offset, SourceOp.UPDATE, key(id), row(id, customer), ChangeEvent.NO_TIME);
  }

  private static ChangeEvent delete(int partition, long offset, int id) {
    return new ChangeEvent(
        "t", partition, offset, SourceOp.DELETE, key(id), null, ChangeEvent.NO_TIME);
  }
}
