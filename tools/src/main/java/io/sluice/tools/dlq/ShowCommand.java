package io.sluice.tools.dlq;

import io.sluice.dlq.DlqEnvelope;
import io.sluice.schema.registry.RegistryException;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.wire.WireFormat;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.record.DlqEntry;
import io.sluice.tools.dlq.record.DlqInputs;
import io.sluice.tools.dlq.record.QuarantinedInput;
import io.sluice.tools.dlq.repair.AvroWire;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.avro.AvroRuntimeException;
import org.apache.kafka.common.header.Header;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code sluice dlq show}: one DLQ record, decoded. */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description = {
      "Shows one DLQ record: the envelope's fields, the DLQ and original headers, the key (decoded"
          + " when it is Avro and a registry is known) and the payload as text when it is"
          + " printable UTF-8, else as hex. The payload is printed here only, never logged.",
      "A record that is a later copy of its input (a zombie sink task quarantined the input"
          + " again) says so and names the input's first record, which list, replay and repair"
          + " use; a first record with copies names them."
    })
final class ShowCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @ParentCommand DlqCommand parent;
  @Mixin EndpointOptions endpoints;

  @Parameters(
      index = "0",
      paramLabel = "<id>",
      converter = DlqRecordId.Converter.class,
      description = "The DLQ record: " + DlqRecordId.FORMS + " (as `list` prints it).")
  DlqRecordId id;

  @Option(
      names = "--partition",
      paramLabel = "P",
      description = "DLQ partition of the record (needed when a bare <offset> is in several).")
  Integer partition;

  @Override
  public Integer call() {
    Endpoints resolved = endpoints.resolve(false);
    PrintWriter out = spec.commandLine().getOut();
    try (ToolSession session = ToolSession.open(parent.context(), resolved)) {
      String topic = session.requireDlqTopic(id.topic(), spec.commandLine());
      List<DlqEntry> entries = session.dlqEntries();
      DlqEntry entry = DlqSelection.one(entries, id, partition, topic);
      QuarantinedInput input = DlqInputs.of(entries).inputOf(entry);
      out.printf("%-16s %s (timestamp %s)%n", "dlq_record", entry.dlq(), at(entry.timestampMs()));
      copies(out, input, entry);
      if (!entry.readable()) {
        out.printf("%-16s %s%n", "unreadable", entry.problem());
        headers(out, "dlq headers", entry.headers());
        out.flush();
        return DlqCommand.EXIT_FAILED;
      }
      envelope(out, entry, session);
      Optional<LedgerEntry> done = session.readLedger().find(input);
      field(out, "ledger", done.map(ShowCommand::describe).orElse("not replayed or repaired"));
      headers(out, "dlq headers", entry.headers());
      out.println("original headers:");
      entry
          .envelope()
          .originalHeaders()
          .forEach(h -> out.printf("  %s = %s%n", h.key(), Display.shortValue(h.value())));
      key(out, entry.envelope().originalKey(), session.registry());
      payload(out, entry.envelope().originalValue());
      out.flush();
    }
    return 0;
  }

  /** Where {@code entry} stands among its input's DLQ records, when it has more than one. */
  private static void copies(PrintWriter out, QuarantinedInput input, DlqEntry entry) {
    if (input.copies() == 1) {
      return;
    }
    if (!input.isFirst(entry)) {
      field(
          out,
          "copy_of",
          input.first().dlq()
              + " (this record is a later copy of "
              + input.identity()
              + ": a zombie sink task quarantined it again; list, replay and repair use the first)");
      return;
    }
    field(
        out,
        "copies",
        input.copies()
            + " (later: "
            + String.join(", ", input.laterCopies().stream().map(e -> e.dlq().toString()).toList())
            + "; a zombie sink task quarantined the input again)");
  }

  private static void envelope(PrintWriter out, DlqEntry entry, ToolSession session) {
    DlqEnvelope e = entry.envelope();
    Duration age = Duration.between(e.quarantinedAt(), session.clock().instant());
    field(out, "format", entry.format().name().toLowerCase(java.util.Locale.ROOT));
    field(out, "quarantined_at", e.quarantinedAt() + " (" + Display.age(age) + " ago)");
    field(out, "original", entry.original() + " (timestamp " + at(e.originalTimestampMs()) + ")");
    field(out, "stage", entry.stage());
    if (e.sinkTable() != null) {
      field(
          out,
          "not_written_to",
          e.sinkTable() + " (other sinks of " + e.originalTopic() + " read it on their own)");
    }
    field(out, "error_code", e.errorCode());
    field(out, "error_type", e.errorType());
    field(out, "error_message", e.errorMessage());
    field(out, "schema_id", e.schemaId());
    field(out, "key_schema_id", e.keySchemaId());
    field(out, "value_sha256", e.originalValueSha256());
    field(out, "router", e.routerApplicationId());
  }

  private static void key(PrintWriter out, byte[] key, SchemaRegistryClient registry) {
    if (key != null && registry != null && WireFormat.hasHeader(key)) {
      int id = WireFormat.schemaId(key);
      try {
        Object decoded = AvroWire.decode(key, registry.schemaById(id));
        field(out, "key", decoded + " (Avro, schema id " + id + ")");
        return;
      } catch (RegistryException | IOException | AvroRuntimeException e) {
        field(out, "key", Display.shortValue(key) + " (schema id " + id + " did not decode it)");
        return;
      }
    }
    field(out, "key", Display.shortValue(key));
  }

  private static void payload(PrintWriter out, byte[] value) {
    if (value == null) {
      out.println("payload: null");
      return;
    }
    String text = Display.printableText(value);
    if (text != null) {
      out.printf("payload (UTF-8 text, %d bytes):%n%s%n", value.length, text);
    } else {
      out.printf("payload (binary, %d bytes, hex):%n%s", value.length, Display.hexDump(value));
    }
  }

  private static void headers(PrintWriter out, String title, List<Header> headers) {
    out.println(title + ":");
    headers.forEach(h -> out.printf("  %s = %s%n", h.key(), Display.shortValue(h.value())));
  }

  private static String describe(LedgerEntry d) {
    return d.action().pastTense()
        + " at "
        + d.handledAt()
        + " -> "
        + d.produced()
        + (d.strategy() == null ? "" : " (strategy " + d.strategy() + ")")
        + (d.forced() ? " (forced)" : "");
  }

  private static void field(PrintWriter out, String name, Object value) {
    out.printf("%-16s %s%n", name, value == null ? "-" : value);
  }

  private static String at(long timestampMs) {
    return timestampMs < 0 ? "-" : Instant.ofEpochMilli(timestampMs).toString();
  }
}
