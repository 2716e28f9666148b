package io.sluice.tools.monitor;

import io.sluice.contract.TopicNames;
import io.sluice.tools.dlq.kafka.TopicScanner;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the DLQ topics at each refresh and reads what each one and its ledger ({@code
 * <dlq>.repairs}) gained since the last, from the beginning for a topic seen for the first time.
 * Reads as a read_committed consumer without a group (assigned partitions, no commits), so records
 * of aborted router transactions never count and the monitor leaves no trace on the cluster.
 */
final class DlqWatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DlqWatcher.class);

  private final TopicScanner scanner;
  private final Pattern dlqTopics;
  private final TopicNames names;
  private final MonitorMetrics metrics;
  private final Map<String, Watch> watches = new TreeMap<>();

  DlqWatcher(TopicScanner scanner, Pattern dlqTopics, TopicNames names, MonitorMetrics metrics) {
    this.scanner = scanner;
    this.dlqTopics = dlqTopics;
    this.names = names;
    this.metrics = metrics;
  }

  /** True when {@code topic} is a DLQ to watch: it matches, and it is not a ledger topic. */
  static boolean isDlqTopic(Pattern dlqTopics, TopicNames names, String topic) {
    return !names.isRepairsTopic(topic) && dlqTopics.matcher(topic).matches();
  }

  /** Discovers DLQ topics, drops those that are gone, reads what is new; the DLQ topics watched. */
  int refresh() {
    Map<String, List<Integer>> topics = scanner.topics();
    for (String topic : topics.keySet()) {
      if (isDlqTopic(dlqTopics, names, topic) && !watches.containsKey(topic)) {
        log.info("watching DLQ topic {} and its ledger {}", topic, names.repairsTopicOfDlq(topic));
        watches.put(topic, new Watch(topic));
      }
    }
    for (Iterator<Watch> it = watches.values().iterator(); it.hasNext(); ) {
      Watch watch = it.next();
      if (!topics.containsKey(watch.backlog.dlqTopic())) {
        log.info("DLQ topic {} is gone; its metrics are removed", watch.backlog.dlqTopic());
        watch.close();
        it.remove();
      }
    }
    for (Watch watch : watches.values()) {
      watch.refresh(topics);
    }
    return watches.size();
  }

  @Override
  public void close() {
    watches.values().forEach(Watch::close);
    watches.clear();
  }

  /** One DLQ topic: its state, where each partition's next read starts, and its meters. */
  private final class Watch implements AutoCloseable {
    private final DlqBacklog backlog;
    private final Map<Integer, Long> dlqNext = new HashMap<>();
    private final Map<Integer, Long> ledgerNext = new HashMap<>();
    private MonitorMetrics.DlqMeters meters;

    Watch(String dlqTopic) {
      this.backlog = new DlqBacklog(dlqTopic, names.repairsTopicOfDlq(dlqTopic));
    }

    void refresh(Map<String, List<Integer>> topics) {
      String dlqTopic = backlog.dlqTopic();
      String ledgerTopic = names.repairsTopicOfDlq(dlqTopic);
      // The ledger first: a DLQ record whose entry is already known is dropped as it is read.
      read(
          ledgerTopic,
          topics.getOrDefault(ledgerTopic, List.of()),
          ledgerNext,
          backlog::ledgerRecord);
      backlog.settleLedger();
      if (backlog.takeRescan()) {
        log.info(
            "a ledger entry of {} was taken back (tombstone or rewrite); reading {} again from"
                + " the beginning",
            ledgerTopic,
            dlqTopic);
        backlog.restart();
        dlqNext.clear();
      }
      read(dlqTopic, topics.get(dlqTopic), dlqNext, backlog::dlqRecord);
      DlqSnapshot snapshot = backlog.snapshot();
      if (meters == null) {
        meters = metrics.dlqTopic(dlqTopic, snapshot);
      } else {
        meters.publish(snapshot);
      }
    }

    /** Reads each partition from where the last read stopped; progress survives a failed read. */
    private void read(
        String topic,
        List<Integer> partitions,
        Map<Integer, Long> next,
        Consumer<ConsumerRecord<byte[], byte[]>> to) {
      for (int partition : partitions) {
        long end =
            scanner.readFrom(
                new TopicPartition(topic, partition),
                next.getOrDefault(partition, -1L),
                record -> {
                  to.accept(record);
                  next.put(partition, record.offset() + 1);
                });
        next.put(partition, end);
      }
    }

    @Override
    public void close() {
      if (meters != null) {
        meters.close();
      }
    }
  }
}
