package io.sluice.tools.monitor;

import io.sluice.tools.dlq.kafka.TopicScanner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lag of consumer groups per group and topic: for each partition a group committed an offset
 * for, the read_committed end offset (the last stable offset) minus the committed offset, summed
 * over the topic's partitions.
 *
 * <p>On a topic written in transactions (the router's clean and DLQ topics) every transaction ends
 * with a commit marker that takes an offset but is no record. A consumer that committed the offset
 * after its last record, as the Iceberg sinks do, then sits one offset below the end of each
 * partition, and an offset difference would show a lag that never reaches 0. So a gap of at most
 * {@link #COUNTED_GAP} offsets is counted: the records a read_committed consumer gets between the
 * committed offset and the end. Wider gaps are offset differences, which count markers too. A count
 * is kept until the gap moves, so a consumer that sits behind a marker costs no read per refresh.
 */
final class ConsumerLag {
  /** Gaps up to this many offsets are counted record by record. */
  static final long COUNTED_GAP = 500;

  private static final Logger log = LoggerFactory.getLogger(ConsumerLag.class);

  /** Counts the records a read_committed consumer gets in {@code [from, to)} of a partition. */
  interface RecordCounter {
    long count(TopicPartition partition, long from, long to);
  }

  /** Records counted in {@code [from, to)} of a partition. */
  private record Counted(long from, long to, long records) {}

  private final Admin admin;
  private final TopicScanner scanner;
  private final Pattern groups;
  private final Duration timeout;
  private Map<TopicPartition, List<Counted>> counted = new HashMap<>();
  private Map<TopicPartition, List<Counted>> countedNow = new HashMap<>();

  ConsumerLag(Admin admin, TopicScanner scanner, Pattern groups, Duration timeout) {
    this.admin = admin;
    this.scanner = scanner;
    this.groups = groups;
    this.timeout = timeout;
  }

  /** The lag of every matching group, per topic it committed offsets for. */
  Map<GroupTopic, Long> read() {
    List<String> ids = new ArrayList<>();
    for (GroupListing group :
        get(admin.listGroups(ListGroupsOptions.forConsumerGroups()).all(), "list groups")) {
      if (groups.matcher(group.groupId()).matches()) {
        ids.add(group.groupId());
      }
    }
    if (ids.isEmpty()) {
      return Map.of();
    }
    Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
    ids.forEach(id -> specs.put(id, new ListConsumerGroupOffsetsSpec()));
    Map<String, Map<TopicPartition, OffsetAndMetadata>> committed =
        get(admin.listConsumerGroupOffsets(specs).all(), "list committed offsets");
    countedNow = new HashMap<>();
    Map<GroupTopic, Long> lag = sum(committed, ends(partitions(committed)), this::countRecords);
    // Only the gaps of this read are kept: memory stays bounded by the partitions lagging now.
    counted = countedNow;
    return lag;
  }

  /**
   * The lag per group and topic: committed offsets against end offsets; a partition without an end
   * offset (its topic was deleted) or without a committed offset is left out, a committed offset
   * past the end counts 0.
   */
  static Map<GroupTopic, Long> sum(
      Map<String, Map<TopicPartition, OffsetAndMetadata>> committed,
      Map<TopicPartition, Long> ends,
      RecordCounter counter) {
    Map<GroupTopic, Long> lag =
        new TreeMap<>(Comparator.comparing(GroupTopic::group).thenComparing(GroupTopic::topic));
    committed.forEach(
        (group, offsets) ->
            offsets.forEach(
                (partition, offset) -> {
                  Long end = ends.get(partition);
                  if (offset == null || end == null) {
                    return;
                  }
                  long gap = Math.max(0, end - offset.offset());
                  long records =
                      gap == 0 || gap > COUNTED_GAP
                          ? gap
                          : counter.count(partition, offset.offset(), end);
                  lag.merge(new GroupTopic(group, partition.topic()), records, Long::sum);
                }));
    return lag;
  }

  private static Set<TopicPartition> partitions(
      Map<String, Map<TopicPartition, OffsetAndMetadata>> committed) {
    Set<TopicPartition> partitions = new HashSet<>();
    for (Map<TopicPartition, OffsetAndMetadata> offsets : committed.values()) {
      offsets.forEach(
          (partition, offset) -> {
            if (offset != null) {
              partitions.add(partition);
            }
          });
    }
    return partitions;
  }

  /** Read_committed end offsets; a partition whose offset cannot be listed is left out. */
  private Map<TopicPartition, Long> ends(Collection<TopicPartition> partitions) {
    Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
    partitions.forEach(p -> specs.put(p, OffsetSpec.latest()));
    ListOffsetsResult result =
        admin.listOffsets(specs, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED));
    Map<TopicPartition, Long> ends = new HashMap<>();
    for (TopicPartition partition : partitions) {
      try {
        ends.put(partition, get(result.partitionResult(partition), "list end offsets").offset());
      } catch (IllegalStateException e) {
        log.debug("no end offset for {} ({}); its lag is left out", partition, e.getMessage());
      }
    }
    return ends;
  }

  private long countRecords(TopicPartition partition, long from, long to) {
    List<Counted> now = countedNow.computeIfAbsent(partition, p -> new ArrayList<>());
    Counted known = find(now, from, to);
    if (known == null) {
      known = find(counted.getOrDefault(partition, List.of()), from, to);
      if (known == null) {
        known = new Counted(from, to, readCount(partition, from, to));
      }
      now.add(known);
    }
    return known.records();
  }

  private static Counted find(List<Counted> gaps, long from, long to) {
    for (Counted gap : gaps) {
      if (gap.from() == from && gap.to() == to) {
        return gap;
      }
    }
    return null;
  }

  private long readCount(TopicPartition partition, long from, long to) {
    long[] count = {0};
    scanner.read(
        partition,
        from,
        record -> {
          if (record.offset() >= to) {
            return false;
          }
          count[0]++;
          return true;
        });
    return count[0];
  }

  private <T> T get(KafkaFuture<T> future, String what) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while trying to " + what, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "cannot " + what + ": " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "cannot " + what + " within " + timeout.toSeconds() + " s; is the broker reachable?", e);
    }
  }
}
