package io.sluice.stack.control;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A supervisor without processes for tests of the control API and {@code sluice stack}: two
 * components, {@code broker} and {@code router}, whose state follows the calls as the real
 * supervisor's does (409 for an action that does not fit it, 404 for an unknown name). It records
 * every call; {@link #failNext} makes the next action throw.
 */
public final class FakeStackController implements StackController {
  private final Map<String, ComponentStatus> components = new LinkedHashMap<>();
  private final List<String> calls = new ArrayList<>();
  private long nextPid = 1000;
  private RuntimeException failure;

  public FakeStackController() {
    for (String name : List.of("broker", "router")) {
      components.put(name, running(name, 1));
    }
  }

  /** The calls so far, as {@code action} or {@code action name}. */
  public synchronized List<String> calls() {
    return List.copyOf(calls);
  }

  /** The next action (kill, stop, start or crash) throws {@code e} instead. */
  public synchronized void failNext(RuntimeException e) {
    failure = e;
  }

  @Override
  public synchronized List<ComponentStatus> status() {
    return List.copyOf(components.values());
  }

  @Override
  public synchronized ComponentStatus kill(String component) {
    return end("kill", component, ComponentStatus.KILLED, 137);
  }

  @Override
  public synchronized ComponentStatus stop(String component) {
    return end("stop", component, ComponentStatus.STOPPED, 143);
  }

  @Override
  public synchronized ComponentStatus start(String component) {
    ComponentStatus c = call("start", component);
    if (c.running()) {
      throw new ControlException(409, component + " runs already (pid " + c.pid() + ")");
    }
    return put(running(component, c.starts() + 1));
  }

  @Override
  public synchronized List<ComponentStatus> crash() {
    calls.add("crash");
    throwFailure();
    components.replaceAll((name, c) -> running(name, c.starts() + 1));
    return status();
  }

  private ComponentStatus end(String action, String component, String state, int exitCode) {
    ComponentStatus c = call(action, component);
    if (!c.running()) {
      throw new ControlException(
          409, "cannot " + action + " " + component + ": it is " + c.state() + ", not running");
    }
    return put(new ComponentStatus(component, state, null, c.starts(), exitCode, log(component)));
  }

  private ComponentStatus call(String action, String component) {
    calls.add(action + " " + component);
    throwFailure();
    ComponentStatus c = components.get(component);
    if (c == null) {
      throw new ControlException(
          404, "no component " + component + "; the stack has " + components.keySet());
    }
    return c;
  }

  private void throwFailure() {
    RuntimeException e = failure;
    failure = null;
    if (e != null) {
      throw e;
    }
  }

  private ComponentStatus put(ComponentStatus c) {
    components.put(c.name(), c);
    return c;
  }

  private ComponentStatus running(String name, int starts) {
    return new ComponentStatus(name, ComponentStatus.RUNNING, nextPid++, starts, null, log(name));
  }

  private static String log(String name) {
    return "/data/logs/" + name + ".log";
  }
}
