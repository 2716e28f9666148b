package io.sluice.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StepChainTest {
  /** A scenario's step type: each step's result holds the one before it. */
  private sealed interface Found permits Start, One, Two {}

  private record Start() implements Found {}

  private record One(Start start, int value) implements Found {}

  private record Two(One one, int value) implements Found {}

  private final List<String> progress = new ArrayList<>();
  private final List<String> ran = new ArrayList<>();

  @Test
  void eachStepTakesThePreviousResultAndTheChainEndsComplete() {
    StepChain<Found, Two> end =
        StepChain.<Found, Start>start("test", progress::add, new Start())
            .then("one", "the first step", start -> new One(start, 1))
            .then("two", "the second step", one -> new Two(one, one.value() + 1))
            .complete();

    assertThat(end.reached()).isEqualTo(new Two(new One(new Start(), 1), 2));
    assertThat(end.phase()).isEqualTo(StepChain.COMPLETE);
    assertThat(end.failure()).isEmpty();
    assertThat(progress).containsExactly("[one] the first step", "[two] the second step");
  }

  @Test
  void aFailingStepEndsTheRunAndKeepsTheLastResultReached() {
    StepChain<Found, Two> end =
        StepChain.<Found, Start>start("test", progress::add, new Start())
            .then("one", "the first step", start -> new One(start, 1))
            .<Two>then(
                "two",
                "the second step",
                one -> {
                  throw new ScenarioFailure("timed out after 60 s waiting until two happens");
                })
            .then(
                "three",
                "never entered",
                two -> {
                  ran.add("three");
                  return two;
                })
            .complete();

    assertThat(end.reached()).isEqualTo(new One(new Start(), 1));
    assertThat(end.phase()).isEqualTo("two");
    assertThat(end.failure())
        .contains(new StepChain.Failure("two", "timed out after 60 s waiting until two happens"));
    assertThat(ran).isEmpty();
    assertThat(progress)
        .containsExactly(
            "[one] the first step",
            "[two] the second step",
            "FAILED in phase two: timed out after 60 s waiting until two happens");
  }

  @Test
  void anUnexpectedExceptionIsReportedByItsTypeAndMessage() {
    StepChain<Found, One> end =
        StepChain.<Found, Start>start("test", progress::add, new Start())
            .then(
                "one",
                "the first step",
                start -> {
                  throw new java.sql.SQLException("Connection refused");
                });

    assertThat(end.reached()).isEqualTo(new Start());
    assertThat(end.failure())
        .contains(new StepChain.Failure("one", "SQLException: Connection refused"));
  }

  @Test
  void aStepWithoutALineRunsInThePhaseOfTheStepBefore() {
    StepChain<Found, Two> end =
        StepChain.<Found, Start>start("test", progress::add, new Start())
            .then("one", "the first step", start -> new One(start, 1))
            .<Two>then(
                one -> {
                  throw new ScenarioFailure("still in phase one");
                });

    assertThat(end.phase()).isEqualTo("one");
    assertThat(end.failure()).contains(new StepChain.Failure("one", "still in phase one"));
    assertThat(progress)
        .containsExactly("[one] the first step", "FAILED in phase one: still in phase one");
  }

  @Test
  void whatFailsAroundTheStepsFailsTheChainWhereItStands() {
    StepChain<Found, Start> start = StepChain.start("test", progress::add, new Start());

    StepChain<Found, Start> failed = start.failedBy(new IllegalStateException("no catalog"));

    assertThat(failed.phase()).isEqualTo(StepChain.START);
    assertThat(failed.failure())
        .contains(new StepChain.Failure(StepChain.START, "IllegalStateException: no catalog"));
    assertThat(start.failure()).as("the chain it came from is unchanged").isEmpty();
  }
}
