package io.sluice.stack.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.stack.control.FakeStackController;
import io.sluice.stack.control.StackControlServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code sluice stack} against a control API on loopback with a fake supervisor behind it. */
class StackCommandTest {
  private final FakeStackController supervisor = new FakeStackController();
  private final StackControlServer server = StackControlServer.start("127.0.0.1", 0, supervisor);

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void statusPrintsOneLinePerComponent() {
    Result run = execute("status");

    assertThat(run.exit()).isZero();
    assertThat(run.out().lines())
        .containsExactly(
            "COMPONENT  STATE    PID      STARTS EXIT  LOG",
            "broker     RUNNING  1000     1      -     /data/logs/broker.log",
            "router     RUNNING  1001     1      -     /data/logs/router.log");
  }

  @Test
  void killPrintsTheKilledComponent() {
    Result run = execute("kill", "router");

    assertThat(run.exit()).isZero();
    assertThat(supervisor.calls()).containsExactly("kill router");
    assertThat(run.out().lines())
        .contains("router     KILLED   -        1      137   /data/logs/router.log");
  }

  @Test
  void crashPrintsEveryComponentRunningAgain() {
    Result run = execute("crash");

    assertThat(run.exit()).isZero();
    assertThat(supervisor.calls()).containsExactly("crash");
    assertThat(run.out().lines())
        .containsExactly(
            "COMPONENT  STATE    PID      STARTS EXIT  LOG",
            "broker     RUNNING  1002     2      -     /data/logs/broker.log",
            "router     RUNNING  1003     2      -     /data/logs/router.log");
  }

  @Test
  void aRefusalExitsWith1AndTheSupervisorsMessage() {
    Result run = execute("start", "router");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("sluice stack start: router runs already (pid 1001)\n");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void anUnknownComponentExitsWith1() {
    Result run = execute("stop", "zookeeper");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err())
        .isEqualTo("sluice stack stop: no component zookeeper; the stack has [broker, router]\n");
  }

  @Test
  void killWithoutAComponentIsAUsageError() {
    Result run = execute("kill");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).contains("kill needs a component, e.g. `sluice stack kill router`");
    assertThat(supervisor.calls()).isEmpty();
  }

  @Test
  void crashWithAComponentIsAUsageError() {
    Result run = execute("crash", "router");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).contains("crash takes no component");
    assertThat(supervisor.calls()).isEmpty();
  }

  @Test
  void anUnknownActionIsAUsageErrorNamingTheActions() {
    Result run = execute("restart", "router");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err())
        .contains("unknown action 'restart'; actions are [status, stop, kill, start, crash]");
    assertThat(supervisor.calls()).isEmpty();
  }

  @Test
  void noReadyFileAndNoUrlIsAUsageError() {
    Result run = run("status");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).contains("give --ready-file");
  }

  private Result execute(String... args) {
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--control-url";
    all[args.length + 1] = server.url();
    return run(all);
  }

  private static Result run(String... args) {
    CommandLine cli = new CommandLine(new StackCommand());
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(args);
    return new Result(exit, out.toString(), err.toString());
  }

  private record Result(int exit, String out, String err) {}
}
