package io.sluice.schema.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.RandomData;
import org.junit.jupiter.api.Test;

/**
 * A plan's compiled code must give exactly what the interpreter gives: the same end position and
 * captures for every input it accepts, and -1 (the interpreter then decides) for everything else.
 */
class CompiledScanTest {
  private static final Schema ENVELOPE = AvroInputs.load("/orders-envelope.avsc");

  private static final Map<String, Capture> ENVELOPE_CAPTURES =
      Map.of(
          "op", Capture.slot(0),
          "before", new Capture(1, Map.of("id", Capture.slot(3))),
          "after", new Capture(2, Map.of("id", Capture.slot(4))));

  /** Every instruction the generator lays out: scalars, fixed, enums, unions, records. */
  private static final Schema FLAT =
      new Schema.Parser()
          .parse(
              """
              {"type": "record", "name": "Flat", "fields": [
                {"name": "i", "type": "int"},
                {"name": "l", "type": "long"},
                {"name": "f", "type": "float"},
                {"name": "d", "type": "double"},
                {"name": "s", "type": "string"},
                {"name": "b", "type": "bytes"},
                {"name": "flag", "type": "boolean"},
                {"name": "fx", "type": {"type": "fixed", "name": "Fx", "size": 3}},
                {"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A", "B", "C"]}},
                {"name": "oi", "type": ["null", "int"]},
                {"name": "ol", "type": ["null", "long"]},
                {"name": "of", "type": ["null", "float"]},
                {"name": "od", "type": ["null", "double"]},
                {"name": "os", "type": ["null", "string"]},
                {"name": "oflag", "type": ["null", "boolean"]},
                {"name": "ofx", "type": ["null", "Fx"]},
                {"name": "oe", "type": ["null", "E"]},
                {"name": "choice", "type": ["null", "string", "long", "Fx", "E",
                  {"type": "record", "name": "Inner", "fields": [
                    {"name": "n", "type": "int"}, {"name": "t", "type": ["null", "string"]}]}]},
                {"name": "nullLast", "type": ["string", "null"]},
                {"name": "inner", "type": "Inner"},
                {"name": "oinner", "type": ["null", "Inner"]},
                {"name": "ci", "type": "int"},
                {"name": "cl", "type": "long"},
                {"name": "cf", "type": "float"},
                {"name": "cd", "type": "double"},
                {"name": "cs", "type": "string"},
                {"name": "cflag", "type": "boolean"},
                {"name": "cfx", "type": "Fx"},
                {"name": "coi", "type": ["null", "int"]},
                {"name": "cos", "type": ["null", "string"]},
                {"name": "cinner", "type": "Inner"},
                {"name": "coinner", "type": ["null", "Inner"]},
                {"name": "cchoice", "type": ["null", "string", "Inner"]},
                {"name": "tail", "type": "long"}
              ]}
              """);

  private static final Map<String, Capture> FLAT_CAPTURES =
      Map.ofEntries(
          Map.entry("ci", Capture.slot(0)),
          Map.entry("cl", Capture.slot(1)),
          Map.entry("cf", Capture.slot(2)),
          Map.entry("cd", Capture.slot(3)),
          Map.entry("cs", Capture.slot(4)),
          Map.entry("cflag", Capture.slot(5)),
          Map.entry("cfx", Capture.slot(6)),
          Map.entry("coi", Capture.slot(7)),
          Map.entry("cos", Capture.slot(8)),
          Map.entry("cinner", new Capture(9, Map.of("n", Capture.slot(12)))),
          Map.entry("coinner", new Capture(10, Map.of("t", Capture.slot(13)))),
          Map.entry("cchoice", Capture.slot(11)));

  private static final int FLAT_SLOTS = 14;

  private final Random random = new Random(20261130L);
  private int accepted;

  @Test
  void debeziumEnvelopeAndFlatRecordsAreCompiled() {
    assertThat(compiled(new ScanCompiler().compile(ENVELOPE, ENVELOPE_CAPTURES))).isNotNull();
    assertThat(compiled(new ScanCompiler().compile(FLAT, FLAT_CAPTURES))).isNotNull();
    assertThat(compiled(new ScanCompiler().compile(FLAT))).isNotNull();
    assertThat(compiled(new ScanCompiler().compile(Schema.create(Schema.Type.STRING)))).isNotNull();
  }

  @Test
  void plansWithTheSameCodeShareTheirCompiledCode() {
    CompiledScan first = compiled(new ScanCompiler().compile(ENVELOPE, ENVELOPE_CAPTURES));
    CompiledScan again = compiled(new ScanCompiler().compile(ENVELOPE, ENVELOPE_CAPTURES));
    CompiledScan otherSlots =
        compiled(new ScanCompiler().compile(ENVELOPE, Map.of("op", Capture.slot(1))));

    assertThat(again).isSameAs(first);
    assertThat(otherSlots).isNotNull().isNotSameAs(first);
  }

  @Test
  void plansWithArraysMapsRecursionOrTooMuchCodeAreInterpreted() {
    Schema withArray =
        SchemaBuilder.record("A")
            .fields()
            .name("xs")
            .type()
            .array()
            .items()
            .longType()
            .noDefault()
            .endRecord();
    Schema withMap = SchemaBuilder.map().values().stringType();
    Schema recursive =
        new Schema.Parser()
            .parse(
                """
                {"type": "record", "name": "Node", "fields": [
                  {"name": "next", "type": ["null", "Node"]}]}
                """);
    SchemaBuilder.FieldAssembler<Schema> wide = SchemaBuilder.record("Wide").fields();
    for (int i = 0; i < 2_000; i++) {
      wide = wide.name("f" + i).type().stringType().noDefault();
    }
    assertThat(compiled(new ScanCompiler().compile(withArray))).isNull();
    assertThat(compiled(new ScanCompiler().compile(withMap))).isNull();
    assertThat(compiled(new ScanCompiler().compile(recursive))).isNull();
    assertThat(compiled(new ScanCompiler().compile(wide.endRecord()))).isNull();
  }

  @Test
  void aUnionIndexInTwoBytesIsLeftToTheInterpreterWhichAcceptsIt() {
    Schema schema =
        SchemaBuilder.record("R").fields().optionalString("note").requiredInt("n").endRecord();
    ScanPlan plan = new ScanCompiler().compile(schema);
    // note: union index 0 written as 0x80 0x00 (valid, not canonical); n = 1
    byte[] body = {(byte) 0x80, 0x00, 0x02};

    assertThat(compiled(plan).scan(body, 0, body.length, Captures.NONE)).isEqualTo(-1);
    assertThat(AvroScanner.scan(plan, body, 0, Captures.NONE)).isEqualTo(3);
  }

  @Test
  void compiledScanAgreesWithTheInterpreterOnTheOrdersEnvelope() {
    differential(ENVELOPE, ENVELOPE_CAPTURES, 5);
  }

  @Test
  void compiledScanAgreesWithTheInterpreterOnEveryFlatInstruction() {
    differential(FLAT, FLAT_CAPTURES, FLAT_SLOTS);
  }

  @Test
  void compiledScanAgreesWithTheInterpreterWhereEachKindOfValueEndsTheInput() {
    Schema fx = Schema.createFixed("Fx", null, null, 3);
    for (Schema last :
        List.of(
            Schema.create(Schema.Type.INT),
            Schema.create(Schema.Type.LONG),
            Schema.create(Schema.Type.FLOAT),
            Schema.create(Schema.Type.DOUBLE),
            Schema.create(Schema.Type.STRING),
            Schema.create(Schema.Type.BYTES),
            Schema.create(Schema.Type.BOOLEAN),
            fx,
            Schema.createEnum("E", null, null, List.of("A", "B")),
            Schema.createUnion(Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.STRING)),
            Schema.createUnion(
                Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.LONG), fx))) {
      Schema record =
          SchemaBuilder.record("Last").fields().name("v").type(last).noDefault().endRecord();
      accepted = 0;
      // A captured enum keeps its symbols: such plans are interpreted.
      boolean isEnum = last.getType() == Schema.Type.ENUM;
      differential(record, isEnum ? Map.of() : Map.of("v", Capture.slot(0)), 1);
    }
  }

  @Test
  void aPlanIsCompiledOnceItHasBeenScannedOftenEnough() {
    ScanPlan plan = new ScanCompiler().compile(Schema.create(Schema.Type.LONG));
    byte[] body = {0x02};
    for (int i = 0; i < ScanPlan.SCANS_BEFORE_COMPILING; i++) {
      assertThat(plan.compiledForScan()).as("interpreted at scan %d", i + 1).isNull();
    }
    CompiledScan compiled = plan.compiledForScan();

    assertThat(compiled).isNotNull();
    assertThat(plan.compiledForScan()).isSameAs(compiled);
    assertThat(AvroScanner.scan(plan, body, 0, Captures.NONE)).isEqualTo(1);
  }

  /** Valid records, their truncations and random mutations, with and without captures. */
  private void differential(Schema schema, Map<String, Capture> captures, int slots) {
    ScanPlan plain = new ScanCompiler().compile(schema);
    ScanPlan capturing = new ScanCompiler().compile(schema, captures);
    CompiledScan plainCode = compiled(plain);
    CompiledScan capturingCode = compiled(capturing);
    assertThat(plainCode).as("compiled plan of %s", schema).isNotNull();
    assertThat(capturingCode).as("compiled capturing plan of %s", schema).isNotNull();
    Scans scans = new Scans(plain, plainCode, capturing, capturingCode, slots);
    List<byte[]> valid = new ArrayList<>();
    for (Object record : new RandomData(schema, 300, random.nextLong())) {
      valid.add(AvroInputs.body((GenericRecord) record));
    }
    for (byte[] body : valid) {
      assertThat(plainCode.scan(body, 0, body.length, Captures.NONE))
          .as("a record written by Avro is read by the compiled code alone")
          .isEqualTo(body.length);
      compare(scans, body);
    }
    for (int i = 0; i < 40; i++) {
      byte[] body = valid.get(i);
      for (int length = 0; length < body.length; length++) {
        compare(scans, Arrays.copyOf(body, length));
      }
    }
    for (int i = 0; i < 20_000; i++) {
      compare(scans, AvroInputs.mutate(valid.get(random.nextInt(valid.size())), random));
    }
    assertThat(accepted).as("inputs both accepted").isGreaterThanOrEqualTo(300);
  }

  /** One schema's plans, without and with captures, and their compiled code. */
  private record Scans(
      ScanPlan plain,
      CompiledScan plainCode,
      ScanPlan capturing,
      CompiledScan capturingCode,
      int slots) {}

  private void compare(Scans scans, byte[] body) {
    compare(scans.plain(), scans.plainCode(), body, 0, Captures.NONE, Captures.NONE);
    // With a header before the value, as the router scans it, and captures.
    byte[] framed = new byte[5 + body.length];
    random.nextBytes(framed);
    System.arraycopy(body, 0, framed, 5, body.length);
    compare(
        scans.capturing(),
        scans.capturingCode(),
        framed,
        5,
        new Captures(framed, scans.slots()),
        new Captures(framed, scans.slots()));
  }

  private void compare(
      ScanPlan plan,
      CompiledScan code,
      byte[] buf,
      int offset,
      Captures compiledSlots,
      Captures interpretedSlots) {
    String interpreted;
    try {
      interpreted = "end " + AvroScanner.interpret(plan, buf, offset, buf.length, interpretedSlots);
    } catch (AvroDecodeException e) {
      interpreted = "error " + e.getMessage();
    }
    int compiled = code.scan(buf, offset, buf.length, compiledSlots);
    if (compiled < 0) {
      return; // left to the interpreter, which AvroScanner.scan then runs
    }
    if (!interpreted.equals("end " + compiled)) {
      fail(
          "compiled scan ends at %d, the interpreter gives %s: %s",
          compiled, interpreted, HexFormat.of().formatHex(buf));
    }
    accepted++;
    for (int slot = 0; slot < compiledSlots.slots(); slot++) {
      byte kind = interpretedSlots.kind(slot);
      assertThat(compiledSlots.kind(slot)).as("kind of slot %d", slot).isEqualTo(kind);
      if (kind != Captures.ABSENT) {
        assertThat(compiledSlots.sameValue(slot, interpretedSlots, slot))
            .as("value of slot %d: %s", slot, HexFormat.of().formatHex(buf))
            .isTrue();
      }
    }
  }

  /** {@code plan}'s compiled code, generated now (a plan compiles itself only once it is hot). */
  private static CompiledScan compiled(ScanPlan plan) {
    return ScanClassGenerator.generate(plan.code, plan.symbolTables);
  }
}
