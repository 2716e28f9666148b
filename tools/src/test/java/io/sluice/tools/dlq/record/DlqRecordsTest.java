package io.sluice.tools.dlq.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.dlq.DlqHeaders;
import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.testing.TestSchemas;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class DlqRecordsTest {

  private static ConsumerRecord<byte[], byte[]> record(
      byte[] key, byte[] value, RecordHeaders headers) {
    return new ConsumerRecord<>(
        "t.dlq",
        2,
        9,
        1_700_000_000_000L,
        TimestampType.CREATE_TIME,
        -1,
        -1,
        key,
        value,
        headers,
        Optional.empty());
  }

  @Test
  void anEnvelopeFromAFileIsReadWithItsOriginalBytes() {
    DlqEntry entry = DlqRecords.fromFile(TestSchemas.resource("/dlq-envelope-intended-row.json"));

    assertThat(entry.format()).isEqualTo(DlqEntry.Format.FILE);
    assertThat(entry.dlq()).isNull();
    assertThat(entry.original()).isEqualTo(new Coordinates("test.shop.orders", 1, 17));
    assertThat(entry.envelope().quarantinedAt())
        .isEqualTo(Instant.parse("2026-03-01T10:15:31.000123Z"));
    assertThat(new String(entry.envelope().originalValue(), StandardCharsets.UTF_8))
        .startsWith("{\"intended_after\":{\"order_id\":42,");
    assertThat(entry.envelope().originalHeaders()).hasSize(1);
    assertThat(entry.describe()).isEqualTo("envelope from file (original test.shop.orders-1@17)");
  }

  @Test
  void aFileThatIsNotAnEnvelopeIsRefused() {
    assertThatThrownBy(() -> DlqRecords.fromFile("{\"dlq_schema_version\": 2}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("DLQ envelope version 2 is not supported (expected 1)");
  }

  @Test
  void aRawDlqRecordIsReadFromItsErrorHeaders() {
    RecordHeaders headers = new RecordHeaders();
    headers.add("trace", "abc".getBytes(StandardCharsets.UTF_8));
    headers.add(DlqHeaders.ERRORS_TOPIC, "broker.shop.orders".getBytes(StandardCharsets.UTF_8));
    headers.add(DlqHeaders.ERRORS_PARTITION, "2".getBytes(StandardCharsets.UTF_8));
    headers.add(DlqHeaders.ERRORS_OFFSET, "12345678901".getBytes(StandardCharsets.UTF_8));
    headers.add(DlqHeaders.ERRORS_EXCEPTION, "x.Boom".getBytes(StandardCharsets.UTF_8));
    headers.add(DlqHeaders.ERRORS_MESSAGE, "bad".getBytes(StandardCharsets.UTF_8));
    headers.add(DlqHeaders.ERROR_CODE, "NOT_AVRO_WIRE_FORMAT".getBytes(StandardCharsets.UTF_8));

    DlqEntry entry = DlqRecords.entry(record(new byte[] {1}, "{\"a\":1}".getBytes(), headers));

    assertThat(entry.format()).isEqualTo(DlqEntry.Format.RAW);
    assertThat(entry.dlq()).isEqualTo(new Coordinates("t.dlq", 2, 9));
    assertThat(entry.original()).isEqualTo(new Coordinates("broker.shop.orders", 2, 12345678901L));
    assertThat(entry.envelope().errorCode()).isEqualTo("NOT_AVRO_WIRE_FORMAT");
    assertThat(entry.envelope().originalKey()).containsExactly(1);
    assertThat(entry.envelope().originalValue()).isEqualTo("{\"a\":1}".getBytes());
    assertThat(entry.envelope().originalHeaders())
        .extracting(h -> h.key())
        .containsExactly("trace");
  }

  @Test
  void aRecordThatIsNeitherIsUnreadableWithAReason() {
    DlqEntry entry = DlqRecords.entry(record(null, "{\"x\": 1}".getBytes(), new RecordHeaders()));

    assertThat(entry.readable()).isFalse();
    assertThat(entry.problem())
        .isEqualTo(
            "not a DLQ envelope v1 (DLQ envelope has no field 'dlq_schema_version') and no"
                + " __streams.errors.topic or __connect.errors.topic header");
  }

  @Test
  void aRecordOfConnectsOwnDlqIsASinkStageRecordReadFromItsContextHeaders() {
    RecordHeaders headers = new RecordHeaders();
    headers.add("trace", "abc".getBytes(StandardCharsets.UTF_8));
    add(headers, DlqHeaders.CONNECT_TOPIC, "broker.shop.orders.clean");
    add(headers, DlqHeaders.CONNECT_PARTITION, "1");
    add(headers, DlqHeaders.CONNECT_OFFSET, "42");
    add(headers, DlqHeaders.CONNECT_CONNECTOR_NAME, "sluice-changelog-sink");
    add(headers, DlqHeaders.CONNECT_TASK_ID, "0");
    add(headers, DlqHeaders.CONNECT_STAGE, "VALUE_CONVERTER");
    add(headers, DlqHeaders.CONNECT_EXCEPTION_CLASS_NAME, "o.a.k.c.errors.DataException");
    add(headers, DlqHeaders.CONNECT_EXCEPTION_MESSAGE, "not in the Confluent wire format");

    DlqEntry entry = DlqRecords.entry(record(new byte[] {1}, "{\"a\":1}".getBytes(), headers));

    assertThat(entry.format()).isEqualTo(DlqEntry.Format.CONNECT);
    assertThat(entry.original()).isEqualTo(new Coordinates("broker.shop.orders.clean", 1, 42));
    assertThat(entry.stage()).isEqualTo("sink sluice-changelog-sink/0");
    assertThat(entry.envelope().errorCode()).isEqualTo("SINK_CONNECT_VALUE_CONVERTER");
    assertThat(entry.envelope().errorType()).isEqualTo("o.a.k.c.errors.DataException");
    assertThat(entry.envelope().originalValue()).isEqualTo("{\"a\":1}".getBytes());
    assertThat(entry.envelope().originalHeaders())
        .extracting(h -> h.key())
        .containsExactly("trace");
  }

  @Test
  void theStageIsTheRouterUnlessASinkQuarantinedTheRecord() {
    RecordHeaders headers = new RecordHeaders();
    add(headers, DlqHeaders.ERRORS_TOPIC, "broker.shop.orders");
    add(headers, DlqHeaders.ERRORS_PARTITION, "0");
    add(headers, DlqHeaders.ERRORS_OFFSET, "7");

    assertThat(DlqRecords.entry(record(null, new byte[] {9}, headers)).stage()).isEqualTo("router");
    assertThat(DlqRecords.entry(record(null, null, new RecordHeaders())).stage()).isEqualTo("-");
  }

  private static void add(RecordHeaders headers, String key, String value) {
    headers.add(key, value.getBytes(StandardCharsets.UTF_8));
  }
}
