package io.sluice.tools.dlq.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.tools.dlq.testing.TestSchemas;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class JsonToAvroTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema ROW = TestSchemas.typesRow();

  private static GenericRecord convert(String json) throws Exception {
    return JsonToAvro.record(JSON.readTree(json), ROW, "");
  }

  private static String row(String extra) {
    return "{\"id\": 7, \"flag\": true, \"ratio\": 0.5, \"created_at\": 1700000000123,"
        + " \"price\": 12.34"
        + extra
        + "}";
  }

  @Test
  void timestampTextWithoutZoneIsTakenAsUtcMillis() throws Exception {
    GenericRecord r = convert(row("").replace("1700000000123", "\"2026-03-01 10:15:30.250\""));

    assertThat(r.get("created_at"))
        .isEqualTo(Instant.parse("2026-03-01T10:15:30.250Z").toEpochMilli());
  }

  @Test
  void timestampAcceptsEpochMillisIsoTextWithOffsetAndDateOnly() throws Exception {
    assertThat(convert(row("")).get("created_at")).isEqualTo(1700000000123L);
    assertThat(
            convert(row("").replace("1700000000123", "\"2026-03-01T12:15:30+02:00\""))
                .get("created_at"))
        .isEqualTo(Instant.parse("2026-03-01T10:15:30Z").toEpochMilli());
    assertThat(convert(row("").replace("1700000000123", "\"2026-03-01\"")).get("created_at"))
        .isEqualTo(Instant.parse("2026-03-01T00:00:00Z").toEpochMilli());
  }

  @Test
  void microTimestampDateAndTimeUseDebeziumUnits() throws Exception {
    GenericRecord r =
        convert(
            row(
                ", \"seen_at\": \"2026-03-01 10:15:30.123456\", \"born_on\": \"1990-05-17\","
                    + " \"opens_at\": \"08:30:00.5\""));

    assertThat(r.get("seen_at"))
        .isEqualTo(Instant.parse("2026-03-01T10:15:30Z").getEpochSecond() * 1_000_000 + 123_456);
    assertThat(r.get("born_on")).isEqualTo((int) LocalDate.parse("1990-05-17").toEpochDay());
    assertThat(r.get("opens_at")).isEqualTo((8 * 3600 + 30 * 60) * 1000 + 500);
  }

  @Test
  void decimalsTakeTheSchemaScaleFromNumbersOrText() throws Exception {
    GenericRecord r = convert(row(", \"tax\": \"-0.5\""));

    assertThat(unscaled(r.get("price"))).isEqualTo(BigInteger.valueOf(1234));
    assertThat(unscaled(r.get("tax"))).isEqualTo(BigInteger.valueOf(-500));
  }

  @Test
  void aDecimalWithTooManyFractionDigitsNamesTheField() {
    assertThatThrownBy(() -> convert(row("").replace("12.34", "12.345")))
        .isInstanceOf(RepairException.class)
        .hasMessageContaining("field 'price'")
        .hasMessageContaining("more than 2 digits after the point");
  }

  @Test
  void optionalFieldsMissingOrNullBecomeNullOrTheirDefault() throws Exception {
    GenericRecord r = convert(row(", \"color\": null"));

    assertThat(r.get("seen_at")).isNull();
    assertThat(r.get("color")).isNull();
    assertThat(r.get("tags")).isEqualTo(List.of());
  }

  @Test
  void enumsArraysAndBytesConvert() throws Exception {
    GenericRecord r =
        convert(row(", \"color\": \"GREEN\", \"tags\": [\"a\", \"b\"], \"blob\": \"AAE=\""));

    assertThat(r.get("color"))
        .isEqualTo(
            new GenericData.EnumSymbol(ROW.getField("color").schema().getTypes().get(1), "GREEN"));
    assertThat(r.get("tags")).isEqualTo(List.of("a", "b"));
    assertThat(r.get("blob")).isEqualTo(ByteBuffer.wrap(new byte[] {0, 1}));
  }

  @Test
  void numbersAsTextAndBooleansAsZeroOrOneAreAccepted() throws Exception {
    GenericRecord r = convert(row("").replace("\"id\": 7", "\"id\": \"7\"").replace("true", "1"));

    assertThat(r.get("id")).isEqualTo(7);
    assertThat(r.get("flag")).isEqualTo(true);
  }

  @Test
  void anUnknownFieldIsAnErrorNamingIt() {
    assertThatThrownBy(() -> convert(row(", \"colour\": \"RED\"")))
        .isInstanceOf(RepairException.class)
        .hasMessageStartingWith("unknown field 'colour'")
        .hasMessageContaining("test.types.Row");
  }

  @Test
  void aMissingRequiredFieldIsAnErrorNamingIt() {
    assertThatThrownBy(() -> convert("{\"id\": 7, \"flag\": true, \"ratio\": 1, \"price\": 1}"))
        .isInstanceOf(RepairException.class)
        .hasMessage(
            "required field 'created_at' (long io.debezium.time.Timestamp, no default) is missing"
                + " from the intended row");
  }

  @Test
  void aValueOfTheWrongTypeNamesTheFieldAndTheTypesButNotTheValue() {
    assertThatThrownBy(() -> convert(row("").replace("1700000000123", "\"yesterday-ish\"")))
        .isInstanceOf(RepairException.class)
        .hasMessageContaining("field 'created_at' (long io.debezium.time.Timestamp)")
        .hasMessageContaining("got text that is not such a timestamp")
        .hasMessageNotContaining("yesterday");
    assertThatThrownBy(() -> convert(row("").replace("\"id\": 7", "\"id\": [7]")))
        .isInstanceOf(RepairException.class)
        .hasMessage("field 'id' (int): expected an integer, got a JSON array");
  }

  @Test
  void anIntegerOutOfIntRangeIsRefused() {
    assertThatThrownBy(() -> convert(row("").replace("\"id\": 7", "\"id\": 3000000000")))
        .isInstanceOf(RepairException.class)
        .hasMessage("field 'id' (int): the number does not fit an int");
  }

  @Test
  void nullForARequiredFieldIsRefused() {
    assertThatThrownBy(() -> convert(row("").replace("\"ratio\": 0.5", "\"ratio\": null")))
        .isInstanceOf(RepairException.class)
        .hasMessage("field 'ratio' is null but its type (double) is not optional");
  }

  @Test
  void anUnknownEnumSymbolIsRefused() {
    assertThatThrownBy(() -> convert(row(", \"color\": \"BLUE\"")))
        .isInstanceOf(RepairException.class)
        .hasMessageContaining("field 'color'");
  }

  private static BigInteger unscaled(Object bytes) {
    ByteBuffer buffer = ((ByteBuffer) bytes).duplicate();
    byte[] raw = new byte[buffer.remaining()];
    buffer.get(raw);
    return new BigDecimal(new BigInteger(raw)).toBigInteger();
  }

  @SuppressWarnings("unused")
  private static JsonNode node(String json) throws Exception {
    return JSON.readTree(json);
  }
}
