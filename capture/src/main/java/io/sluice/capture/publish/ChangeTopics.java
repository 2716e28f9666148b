package io.sluice.capture.publish;

import java.util.Optional;

/** What {@link AdminTopicEnsurer} asks of Kafka about a change topic. */
interface ChangeTopics {
  /** Creates {@code topic}; returns normally when it exists already. */
  void createIfAbsent(String topic);

  /**
   * Why {@code topic} cannot take the producer's first sends yet (a partition without a leader, a
   * leader that does not answer, a producer that has not seen the leader), or empty when it can.
   *
   * @throws PublishException when the answer is an error that waiting will not cure
   */
  Optional<String> notReady(String topic);
}
