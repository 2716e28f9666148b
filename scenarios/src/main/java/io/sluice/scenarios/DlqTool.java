package io.sluice.scenarios;

import io.sluice.embedded.TopicReader;
import io.sluice.tools.dlq.DlqCommand;
import io.sluice.tools.dlq.kafka.BrokerClients;
import io.sluice.tools.dlq.kafka.TopicScanner;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.record.DlqEntry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import picocli.CommandLine;

/**
 * {@code sluice dlq} as a scenario runs it: in this JVM, exactly as an operator would type it, then
 * the repair ledger and the record a handling produced, read back from the broker.
 */
public final class DlqTool {
  private final String bootstrapServers;
  private final String dlqTopic;

  public DlqTool(String bootstrapServers, String dlqTopic) {
    this.bootstrapServers = bootstrapServers;
    this.dlqTopic = dlqTopic;
  }

  /**
   * Runs {@code sluice <args>} ({@code args} start with {@code dlq}); the tool's output lines (no
   * payloads) go to {@code progress}.
   *
   * @throws ScenarioFailure when the tool exits with another code than 0
   */
  public void run(List<String> args, Consumer<String> progress) {
    StringWriter out = new StringWriter();
    CommandLine dlq = new CommandLine(new DlqCommand());
    dlq.setOut(new PrintWriter(out, true));
    dlq.setErr(new PrintWriter(out, true));
    int exit = dlq.execute(args.subList(1, args.size()).toArray(String[]::new));
    out.toString().lines().forEach(line -> progress.accept("  dlq: " + line));
    if (exit != 0) {
      throw new ScenarioFailure(
          "`sluice "
              + String.join(" ", args)
              + "` exited with "
              + exit
              + ": "
              + out.toString().strip());
    }
  }

  /** The ledger's entry for {@code entry}, when it was handled. */
  public Optional<LedgerEntry> handled(DlqEntry entry) {
    try (TopicScanner scanner = new TopicScanner(new BrokerClients(bootstrapServers).consumer())) {
      return Ledger.read(scanner, Ledger.topicFor(dlqTopic)).find(entry);
    }
  }

  /** The record a handling produced, read back from where the ledger says it landed (or null). */
  public ConsumerRecord<byte[], byte[]> readBack(LedgerEntry done) {
    return TopicReader.readCommitted(bootstrapServers, done.produced().topic()).stream()
        .filter(
            r ->
                r.partition() == done.produced().partition()
                    && r.offset() == done.produced().offset())
        .findFirst()
        .orElse(null);
  }
}
