package io.sluice.bench;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The baseline of the router benchmark: bytes in, the same bytes out, nothing checked. What the
 * router costs on top of Kafka Streams itself is the difference between the two.
 */
public final class PassThroughTopology {
  private PassThroughTopology() {}

  public static Topology build(String inputTopic, String outputTopic) {
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(inputTopic, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
        .to(outputTopic, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
    return builder.build();
  }
}
