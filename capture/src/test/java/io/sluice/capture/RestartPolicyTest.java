package io.sluice.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.debezium.DebeziumException;
import io.sluice.capture.publish.PublishException;
import java.time.Duration;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.Test;

class RestartPolicyTest {
  private final RestartPolicy policy = new RestartPolicy(3, Duration.ofSeconds(1));

  @Test
  void aPublishFailureRestartsAFewTimesInARowWithGrowingDelays() {
    Throwable failure = refused("db.t");

    assertThat(policy.afterFailure(failure))
        .contains(
            new RestartPolicy.Restart(
                "db.t",
                "Kafka did not acknowledge the change for db.t: "
                    + "org.apache.kafka.common.errors.RecordTooLargeException:"
                    + " batch larger than max.message.bytes",
                1,
                3,
                secs(1)));
    assertThat(policy.afterFailure(failure).map(RestartPolicy.Restart::delay)).contains(secs(2));
    assertThat(policy.afterFailure(failure).map(RestartPolicy.Restart::delay)).contains(secs(4));
    assertThat(policy.afterFailure(failure)).as("fourth failure in a row is final").isEmpty();
  }

  @Test
  void aPublishedChangeStartsTheCountAgain() {
    policy.afterFailure(refused("db.t"));
    policy.afterFailure(refused("db.t"));
    policy.progressed();

    assertThat(policy.afterFailure(refused("db.u")))
        .map(RestartPolicy.Restart::attempt)
        .contains(1);
  }

  @Test
  void otherFailuresAreFinal() {
    assertThat(policy.afterFailure(new DebeziumException("cannot connect to the database")))
        .isEmpty();
    assertThat(policy.afterFailure(null)).isEmpty();
  }

  private static Throwable refused(String topic) {
    // Found wherever it sits in the cause chain the engine reports.
    return new DebeziumException(
        new PublishException(
            topic,
            "Kafka did not acknowledge the change for " + topic,
            new RecordTooLargeException("batch larger than max.message.bytes")));
  }

  private static Duration secs(long seconds) {
    return Duration.ofSeconds(seconds);
  }
}
