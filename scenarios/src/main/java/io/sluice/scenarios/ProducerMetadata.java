package io.sluice.scenarios;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import org.apache.kafka.clients.producer.RecordMetadata;

/** Where a record a scenario produced landed: a report's {@code producer_metadata}. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ProducerMetadata(String topic, int partition, long offset, long timestampMs) {

  public static ProducerMetadata of(RecordMetadata m) {
    return new ProducerMetadata(m.topic(), m.partition(), m.offset(), m.timestamp());
  }

  /** {@code topic-partition@offset}, as progress lines name a record. */
  @Override
  public String toString() {
    return topic + "-" + partition + "@" + offset;
  }
}
