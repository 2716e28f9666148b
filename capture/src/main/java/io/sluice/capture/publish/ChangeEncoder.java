package io.sluice.capture.publish;

import org.apache.kafka.connect.source.SourceRecord;

/** Turns a Debezium record into the key and value bytes published to Kafka. */
@FunctionalInterface
public interface ChangeEncoder {
  EncodedChange encode(SourceRecord record);
}
