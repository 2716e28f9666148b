package io.sluice.lab.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.embedded.ConnectRestClient.ConnectRestException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class LakeSinksTest {
  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final Duration PAUSE = Duration.ofMillis(1);

  @Test
  void aRequestIsRepeatedWhileTheWorkerSaysItIsRebalancing() {
    Answers answers =
        new Answers(
            new ConnectRestException(409, "PUT /connectors/x/config: conflicting operation"),
            new ConnectRestException(
                500,
                "GET /connectors/x/config: Request cannot be completed because a rebalance is"
                    + " expected"));
    assertThat(LakeSinks.duringRebalance("GET x", answers, WAIT, PAUSE)).isEqualTo("answer");
    assertThat(answers.calls).isEqualTo(3);
  }

  @Test
  void anyOtherErrorIsThrownAtOnce() {
    for (ConnectRestException error :
        List.of(
            new ConnectRestException(500, "GET /connectors/x/config: connector class not found"),
            new ConnectRestException(400, "PUT /connectors/x/config: invalid config"))) {
      Answers answers = new Answers(error);
      assertThatThrownBy(() -> LakeSinks.duringRebalance("GET x", answers, WAIT, PAUSE))
          .isSameAs(error);
      assertThat(answers.calls).isEqualTo(1);
    }
  }

  @Test
  void aWorkerThatKeepsRebalancingPastTheWaitFailsWithItsLastAnswer() {
    ConnectRestException rebalancing = new ConnectRestException(409, "rebalance in progress");
    Supplier<String> always =
        () -> {
          throw rebalancing;
        };
    assertThatThrownBy(
            () -> LakeSinks.duringRebalance("GET x", always, Duration.ofMillis(20), PAUSE))
        .isSameAs(rebalancing);
  }

  /** Throws the given errors in turn, then answers. */
  private static final class Answers implements Supplier<String> {
    private final Deque<RuntimeException> errors;
    int calls;

    Answers(RuntimeException... errors) {
      this.errors = new ArrayDeque<>(List.of(errors));
    }

    @Override
    public String get() {
      calls++;
      RuntimeException next = errors.poll();
      if (next != null) {
        throw next;
      }
      return "answer";
    }
  }
}
