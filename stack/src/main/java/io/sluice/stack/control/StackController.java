package io.sluice.stack.control;

import java.util.List;

/**
 * What the control API asks of a supervisor: each call but {@link #crash} names a component and
 * returns its status once the action is done (a start returns once the component answers again).
 * Calls are one at a time.
 */
public interface StackController {
  /** Every component, in start order. */
  List<ComponentStatus> status();

  /** SIGKILL: no shutdown hook runs (a crash, the OOM killer). */
  ComponentStatus kill(String component);

  /** SIGTERM and a clean shutdown (an outage that someone caused on purpose). */
  ComponentStatus stop(String component);

  /** Starts a component that is not running, and waits until it answers. */
  ComponentStatus start(String component);

  /**
   * A machine crash: SIGKILL to every running component at once, then every component started again
   * in start order, each once the one before answers; returns once all of them run.
   */
  List<ComponentStatus> crash();

  /**
   * An error of a call: {@code status} is the HTTP status the control API answers with (404 for an
   * unknown component, 409 for an action that does not fit its state, 500 for a start that failed).
   */
  final class ControlException extends RuntimeException {
    private final int status;

    public ControlException(int status, String message) {
      super(message);
      this.status = status;
    }

    public int status() {
      return status;
    }
  }
}
