package io.sluice.stack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.contract.ReadyFile;
import io.sluice.stack.control.ComponentStatus;
import io.sluice.stack.control.StackControlClient;
import io.sluice.stack.control.StackController;
import io.sluice.tools.cli.CommandReadyFile;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice stack}: the components of a running {@code sluice up --processes}. */
@Command(
    name = "stack",
    mixinStandardHelpOptions = true,
    description = {
      "Lists, stops, SIGKILLs and starts the components of a running `sluice up --processes`,"
          + " or crashes them all, through its control API (the ready file's control_url, on"
          + " loopback).",
      "  status [component]   every component (or one): state, pid, starts, exit code, log",
      "  stop <component>     SIGTERM and a clean shutdown",
      "  kill <component>     SIGKILL: no shutdown hook runs (a crash)",
      "  start <component>    start a stopped or killed component; returns once it answers",
      "  crash                a machine crash: SIGKILL to every running component at once, then"
          + " every component started again in start order; returns once all of them run",
      "Components: broker, registry, mariadb, router, connect, capture, monitor, and prometheus"
          + " with `sluice up --processes --prometheus`; router-2, connect-2, ... with --routers"
          + " and --connect-workers. Exit code 0 on"
          + " success, 1 when the supervisor refuses (unknown component, one that runs already or is"
          + " not running, a start that failed: the message says why), 2 on a usage error."
    })
public final class StackCommand implements Callable<Integer> {
  private static final List<String> ACTIONS = List.of("status", "stop", "kill", "start", "crash");

  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "ACTION",
      description = "status, stop, kill, start or crash.")
  String action;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "COMPONENT",
      description = "The component (required for stop, kill and start; none for crash).")
  String component;

  @Option(
      names = "--ready-file",
      description = "Ready file of the running `sluice up --processes`.")
  Path readyFile;

  @Option(
      names = "--control-url",
      description = "The control API's URL, instead of the ready file's control_url.")
  String controlUrl;

  @Override
  public Integer call() {
    if (!ACTIONS.contains(action)) {
      throw new ParameterException(
          spec.commandLine(), "unknown action '" + action + "'; actions are " + ACTIONS);
    }
    if (action.equals("crash") && component != null) {
      throw new ParameterException(
          spec.commandLine(),
          "crash takes no component: it crashes them all (`sluice stack kill "
              + component
              + "` kills one)");
    }
    if (component == null && !action.equals("status") && !action.equals("crash")) {
      throw new ParameterException(
          spec.commandLine(),
          action + " needs a component, e.g. `sluice stack " + action + " router`");
    }
    StackControlClient client = new StackControlClient(url());
    PrintWriter out = spec.commandLine().getOut();
    try {
      List<ComponentStatus> shown =
          switch (action) {
            case "stop" -> List.of(client.stop(component));
            case "kill" -> List.of(client.kill(component));
            case "start" -> List.of(client.start(component));
            case "crash" -> client.crash();
            default -> component == null ? client.status() : List.of(client.status(component));
          };
      out.printf(
          "%-10s %-8s %-8s %-6s %-5s %s%n", "COMPONENT", "STATE", "PID", "STARTS", "EXIT", "LOG");
      for (ComponentStatus c : shown) {
        out.printf(
            "%-10s %-8s %-8s %-6d %-5s %s%n",
            c.name(),
            c.state(),
            c.pid() == null ? "-" : c.pid(),
            c.starts(),
            c.exitCode() == null ? "-" : c.exitCode(),
            c.log());
      }
      out.flush();
      return 0;
    } catch (StackController.ControlException | UncheckedIOException e) {
      spec.commandLine().getErr().println("sluice stack " + action + ": " + e.getMessage());
      return 1;
    }
  }

  private String url() {
    if (controlUrl != null) {
      return controlUrl;
    }
    if (readyFile == null) {
      throw new ParameterException(
          spec.commandLine(),
          "give --ready-file (of `sluice up --processes --ready-file F`) or --control-url");
    }
    JsonNode ready = new CommandReadyFile(readyFile, spec.commandLine()).read(true);
    String url = ReadyFile.text(ready, ReadyFile.CONTROL_URL);
    if (url == null) {
      throw new ParameterException(
          spec.commandLine(),
          readyFile
              + " has no "
              + ReadyFile.CONTROL_URL
              + ": it is not the ready file of `sluice up --processes`");
    }
    return url;
  }
}
