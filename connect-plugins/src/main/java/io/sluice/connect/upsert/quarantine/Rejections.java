package io.sluice.connect.upsert.quarantine;

import io.sluice.connect.upsert.error.RecordRejectedException;
import java.util.Map;

/**
 * Where the committer sends the records it cannot write, and what it asks before each Iceberg
 * commit.
 */
public interface Rejections {
  /**
   * Takes a rejected record out of the batch: quarantines it, or throws when the sink does not
   * tolerate rejections.
   *
   * @throws RecordRejectedException naming the record, when rejections fail the task
   */
  void reject(String topic, int partition, long offset, RecordRejectedException rejection);

  /**
   * Called right before an Iceberg commit that may move offsets past rejected records: makes every
   * rejection so far durable.
   *
   * @return snapshot summary entries to commit with the offsets
   */
  Map<String, String> beforeCommit();

  /** Rejections fail the task ({@code errors.sink.tolerance=none}). */
  Rejections FAIL =
      new Rejections() {
        @Override
        public void reject(
            String topic, int partition, long offset, RecordRejectedException rejection) {
          throw rejection.withContext(
              "record at topic " + topic + " partition " + partition + " offset " + offset + ": ");
        }

        @Override
        public Map<String, String> beforeCommit() {
          return Map.of();
        }
      };
}
