package io.sluice.tools.dlq.handle;

import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.kafka.TopicScanner;
import io.sluice.tools.dlq.record.DlqEntry;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;

/**
 * Refuses to write a poison record's replacement when a newer event for the same key already
 * followed it in the original topic: the replacement would overwrite newer data with older data.
 * Scans the key's partition from the poison offset + 1 to its end (when the replacement goes to
 * another partition than the poison record's, from the poison record's timestamp), skipping records
 * that are themselves in the DLQ or were produced by earlier repairs.
 */
public final class StaleWriteGuard {
  private final TopicScanner scanner;
  private final KeyDecoder keys;

  public StaleWriteGuard(TopicScanner scanner, KeyDecoder keys) {
    this.scanner = scanner;
    this.keys = keys;
  }

  /** A newer event for the key: where it is. */
  public record NewerEvent(Coordinates at, long timestampMs) {}

  /**
   * The first newer event for {@code plan}'s key after {@code entry}'s poison record.
   *
   * @param ignored records that do not count (poison records, earlier repairs)
   */
  public Optional<NewerEvent> newerEvent(
      DlqEntry entry, PlannedRecord plan, Predicate<Coordinates> ignored) {
    if (plan.key().bytes() == null) {
      return Optional.empty(); // no key, no order per key to protect
    }
    Coordinates poison = entry.original();
    TopicPartition target = new TopicPartition(poison.topic(), plan.partition());
    Long from =
        plan.partition() == poison.partition()
            ? Long.valueOf(poison.offset() + 1)
            : scanner.offsetForTime(target, entry.envelope().originalTimestampMs());
    if (from == null) {
      return Optional.empty();
    }
    NewerEvent[] found = new NewerEvent[1];
    scanner.read(
        target,
        from,
        record -> {
          Coordinates at = new Coordinates(record.topic(), record.partition(), record.offset());
          if (record.key() != null
              && !ignored.test(at)
              && keys.identify(record.key()).sameKeyAs(plan.key())) {
            found[0] = new NewerEvent(at, record.timestamp());
            return false;
          }
          return true;
        });
    return Optional.ofNullable(found[0]);
  }
}
