package io.sluice.schema.avro;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.RandomData;
import org.junit.jupiter.api.Test;

/**
 * Jumps the compiler patches once the code they skip is laid out (optional records, unions) must
 * land where they point whatever the plan's size: a patch written while the code array grows was
 * lost once, leaving the jump at the plan's start, so a null {@code before} image re-read the
 * record from the top and valid change events of a captured table went to the DLQ as
 * AVRO_DECODE_FAILED.
 */
class ScanCompilerJumpsTest {
  private static final Map<String, Capture> ENVELOPE_CAPTURES =
      Map.of(
          "op", Capture.slot(0),
          "before", new Capture(1, Map.of("f0", Capture.slot(3))),
          "after", new Capture(2, Map.of("f0", Capture.slot(4))));

  @Test
  void everyRowWidthScansWhatAvroWrote() {
    for (int width = 1; width <= 96; width++) {
      Schema envelope = envelope(width);
      for (Map<String, Capture> captures : List.of(Map.<String, Capture>of(), ENVELOPE_CAPTURES)) {
        ScanPlan plan = new ScanCompiler().compile(envelope, captures);
        int n = 0;
        for (Object datum : new RandomData(envelope, 8, width)) {
          byte[] body = AvroInputs.body((GenericRecord) datum);
          assertThat(AvroScanner.interpret(plan, body, 0, body.length, new Captures(5)))
              .as("row width %d, captures %s, datum %d", width, captures.keySet(), n++)
              .isEqualTo(body.length);
        }
      }
    }
  }

  /** The envelope of a real captured table (cdc_lab.customers) and one of its insert events. */
  @Test
  void aDebeziumInsertOfATableWithAnOptionalColumnScans() {
    Schema customers = AvroInputs.load("/customers-envelope.avsc");
    byte[] insert =
        HexFormat.of()
            .parseHex(
                "00000000020002828c8d9e0218637573746f6d657220332d31022063332d31406578616d706c652e636f6d08474f4c44828c8d9e0206d0afd5edee6616332e352e302e46696e616c0e6d6172696164620c62726f6b65729087d89bc668000a66616c73650e6364635f6c6162000280d5f7a7c8e4b006028088f0fef7d491ed310212637573746f6d65727302020c302d312d3131206d7973716c2d62696e2e303030303031a22400000000026302a888d89bc66802d28781a8c8e4b00602fae5a3c8f8d491ed31");
    Map<String, Capture> captures =
        Map.of(
            "op", Capture.slot(0),
            "before", new Capture(1, Map.of("customer_id", Capture.slot(3))),
            "after", new Capture(2, Map.of("customer_id", Capture.slot(4))));
    ScanPlan plan = new ScanCompiler().compile(customers, captures);
    Captures slots = new Captures(5);

    assertThat(AvroScanner.interpret(plan, insert, 5, insert.length, slots))
        .isEqualTo(insert.length);
  }

  private static Schema envelope(int width) {
    SchemaBuilder.FieldAssembler<Schema> row = SchemaBuilder.record("Row").fields();
    for (int i = 0; i < width; i++) {
      row =
          switch (i % 3) {
            case 0 -> row.requiredLong("f" + i);
            case 1 -> row.requiredString("f" + i);
            default -> row.optionalString("f" + i);
          };
    }
    Schema value = row.endRecord();
    return SchemaBuilder.record("Envelope")
        .fields()
        .name("before")
        .type()
        .unionOf()
        .nullType()
        .and()
        .type(value)
        .endUnion()
        .nullDefault()
        .name("after")
        .type()
        .unionOf()
        .nullType()
        .and()
        .type(value)
        .endUnion()
        .nullDefault()
        .name("snapshot")
        .type()
        .unionOf()
        .stringType()
        .and()
        .nullType()
        .endUnion()
        .stringDefault("false")
        .requiredString("op")
        .endRecord();
  }
}
