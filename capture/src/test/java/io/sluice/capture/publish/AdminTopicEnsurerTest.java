package io.sluice.capture.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

class AdminTopicEnsurerTest {
  private final FakeTopics topics = new FakeTopics();
  private final ManualTime time = new ManualTime();
  private final AdminTopicEnsurer ensurer =
      new AdminTopicEnsurer(topics, Duration.ofSeconds(3), time);

  @Test
  void waitsUntilTheTopicIsReadyAndChecksAReadyTopicOnlyOnce() {
    topics.answers.add(Optional.of("the broker names no leader for partitions [0, 2]"));
    topics.answers.add(
        Optional.of("the producer sees 3 of 3 partitions, without a leader for [2]"));

    ensurer.ensure("db.t");
    ensurer.ensure("db.t");

    assertThat(topics.created).containsExactly("db.t");
    assertThat(topics.checks).isEqualTo(3);
    assertThat(time.sleeps).containsExactly(20L, 40L);
  }

  @Test
  void aTopicNeverReadyFailsAfterTheTimeoutNamingTheTopicAndWhatIsMissing() {
    topics.forever = Optional.of("the broker names no leader for partitions [1]");

    assertThatThrownBy(() -> ensurer.ensure("db.t"))
        .isInstanceOf(PublishException.class)
        .hasMessage(
            "change topic db.t is not ready for writes after 3000 ms: the broker names no leader"
                + " for partitions [1]; check that the broker is up and every partition has a"
                + " leader (kafka-topics.sh --describe --topic db.t)")
        .extracting(e -> ((PublishException) e).topic())
        .isEqualTo("db.t");
    // Backs off up to a second, and never sleeps past the timeout.
    assertThat(time.sleeps).containsExactly(20L, 40L, 80L, 160L, 320L, 640L, 1000L, 740L);
  }

  @Test
  void aTopicThatTimedOutIsCheckedAgainOnTheNextSend() {
    topics.forever = Optional.of("asking its leaders for end offsets failed: timeout");
    assertThatThrownBy(() -> ensurer.ensure("db.t"))
        .isInstanceOf(PublishException.class)
        .hasMessageContaining("asking its leaders for end offsets failed: timeout");

    topics.forever = Optional.empty();
    ensurer.ensure("db.t");

    assertThat(topics.created).containsExactly("db.t", "db.t");
  }

  @Test
  void anInterruptedWaitStopsWithAnError() {
    topics.forever = Optional.of("the broker names no leader for partitions [0]");
    time.interruptOnSleep = true;
    try {
      assertThatThrownBy(() -> ensurer.ensure("db.t"))
          .isInstanceOf(PublishException.class)
          .hasMessage("interrupted waiting for change topic db.t to be ready");
    } finally {
      Thread.interrupted();
    }
  }

  /** Answers from a queue, then {@link #forever}. */
  private static final class FakeTopics implements ChangeTopics {
    final List<String> created = new ArrayList<>();
    final Deque<Optional<String>> answers = new ArrayDeque<>();
    Optional<String> forever = Optional.empty();
    int checks;

    @Override
    public void createIfAbsent(String topic) {
      created.add(topic);
    }

    @Override
    public Optional<String> notReady(String topic) {
      checks++;
      return answers.isEmpty() ? forever : answers.poll();
    }
  }

  /** A clock that moves only when slept on. */
  private static final class ManualTime implements Time {
    final List<Long> sleeps = new ArrayList<>();
    boolean interruptOnSleep;
    long now = 1_000_000;

    @Override
    public long milliseconds() {
      return now;
    }

    @Override
    public long nanoseconds() {
      return now * 1_000_000;
    }

    @Override
    public void sleep(long ms) {
      sleeps.add(ms);
      now += ms;
      if (interruptOnSleep) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void waitObject(Object obj, Supplier<Boolean> condition, long deadlineMs) {
      throw new UnsupportedOperationException("not used by the ensurer");
    }
  }
}
