package io.sluice.scenarios;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A scenario's steps, run in order, each on the result of the step before. The chain is a value:
 * {@link #then} returns a new chain and changes nothing. Once a step fails, later steps do not run,
 * and the chain keeps the last result reached (to build the report from) and the phase that failed
 * with its reason.
 *
 * <p>A step ends the run by throwing: a {@link ScenarioFailure} names what did not happen and is
 * reported as is; any other exception is reported as its type and message, and logged.
 *
 * @param <S> what every step of the scenario returns (its step type), so that whatever step was
 *     reached last can build the report
 * @param <T> what the last step returned
 */
public final class StepChain<S, T extends S> {
  private static final Logger log = LoggerFactory.getLogger(StepChain.class);

  /** The phase a run is in before its first step, and after its last one. */
  public static final String START = "start";

  public static final String COMPLETE = "complete";

  /** The phase of every scenario's first step: the baseline rows reach the lake. */
  public static final String BASELINE = "baseline";

  /** The phase of every scenario's last step: the final reading of the lake. */
  public static final String FINAL = "final";

  /** One step: the previous step's result in, this step's result out. */
  @FunctionalInterface
  public interface Step<I, O> {
    O run(I previous) throws Exception;
  }

  /**
   * The phase a run failed in, and why.
   *
   * @param drift the tables that drifted when the failed step last read the lake, with their
   *     differing rows ({@link ScenarioFailure#drift()}); empty when it read none
   */
  public record Failure(String phase, String reason, List<TableDrift> drift) {
    public Failure {
      drift = drift == null ? List.of() : List.copyOf(drift);
    }

    public Failure(String phase, String reason) {
      this(phase, reason, List.of());
    }
  }

  private final String scenario;
  private final Consumer<String> progress;
  private final S reached;
  private final T last;
  private final String phase;
  private final Failure failure;

  private StepChain(
      String scenario,
      Consumer<String> progress,
      S reached,
      T last,
      String phase,
      Failure failure) {
    this.scenario = scenario;
    this.progress = progress;
    this.reached = reached;
    this.last = last;
    this.phase = phase;
    this.failure = failure;
  }

  /**
   * A chain at {@link #START} whose first step will take {@code start}.
   *
   * @param scenario the failure class, for log lines
   * @param progress where "[phase] what happens" lines go, for a person to read
   */
  public static <S, T extends S> StepChain<S, T> start(
      String scenario, Consumer<String> progress, T start) {
    return new StepChain<>(scenario, progress, start, start, START, null);
  }

  /**
   * Enters {@code phase} (a progress line "[phase] line") and runs {@code step} on the last result,
   * unless an earlier step failed.
   */
  public <R extends S> StepChain<S, R> then(String phase, String line, Step<? super T, R> step) {
    if (failure != null) {
      return new StepChain<>(scenario, progress, reached, null, this.phase, failure);
    }
    progress.accept("[" + phase + "] " + line);
    log.info("{}: {}: {}", scenario, phase, line);
    return run(phase, step);
  }

  /** Runs {@code step} in the phase the chain is in (no progress line), unless a step failed. */
  public <R extends S> StepChain<S, R> then(Step<? super T, R> step) {
    if (failure != null) {
      return new StepChain<>(scenario, progress, reached, null, phase, failure);
    }
    return run(phase, step);
  }

  /** The chain after its last step: in phase {@link #COMPLETE} unless a step failed. */
  public StepChain<S, T> complete() {
    return failure != null
        ? this
        : new StepChain<>(scenario, progress, reached, last, COMPLETE, null);
  }

  /**
   * The chain failed by {@code e} where it stands: for what runs around the steps (opening or
   * closing the stack's clients).
   */
  public StepChain<S, T> failedBy(Exception e) {
    return failure != null ? this : fail(phase, e);
  }

  /** The result of the last step that completed (the start value when none did). */
  public S reached() {
    return reached;
  }

  /** The phase the chain is in: the failed one, or {@link #COMPLETE}. */
  public String phase() {
    return phase;
  }

  /** Why the run ended early, if it did. */
  public Optional<Failure> failure() {
    return Optional.ofNullable(failure);
  }

  private <R extends S> StepChain<S, R> run(String phase, Step<? super T, R> step) {
    try {
      R next = step.run(last);
      return new StepChain<>(scenario, progress, next, next, phase, null);
    } catch (Exception e) {
      return fail(phase, e);
    }
  }

  private <R extends S> StepChain<S, R> fail(String phase, Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    String reason;
    List<TableDrift> drift = List.of();
    if (e instanceof ScenarioFailure failed) {
      reason = e.getMessage();
      drift = failed.drift();
    } else {
      log.warn("{} scenario failed in phase {}", scenario, phase, e);
      reason = e.getClass().getSimpleName() + ": " + e.getMessage();
    }
    progress.accept("FAILED in phase " + phase + ": " + reason);
    return new StepChain<>(
        scenario, progress, reached, null, phase, new Failure(phase, reason, drift));
  }
}
