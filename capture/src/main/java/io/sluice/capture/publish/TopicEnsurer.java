package io.sluice.capture.publish;

/** Makes sure a change topic exists before the first record is sent to it. */
@FunctionalInterface
public interface TopicEnsurer {
  void ensure(String topic);
}
