package io.sluice.capture.publish;

import io.sluice.schema.Subjects;
import io.sluice.schema.connect.ConnectAvroCodec;
import org.apache.kafka.connect.source.SourceRecord;

/** Encodes a Debezium record's key and value under the topic's subjects (TopicNameStrategy). */
public final class AvroChangeEncoder implements ChangeEncoder {
  private final ConnectAvroCodec codec;

  public AvroChangeEncoder(ConnectAvroCodec codec) {
    this.codec = codec;
  }

  @Override
  public EncodedChange encode(SourceRecord record) {
    String topic = record.topic();
    byte[] key =
        record.key() == null
            ? null
            : codec.encode(Subjects.key(topic), record.keySchema(), record.key());
    byte[] value =
        record.value() == null
            ? null
            : codec.encode(Subjects.value(topic), record.valueSchema(), record.value());
    return new EncodedChange(key, value);
  }
}
