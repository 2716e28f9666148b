package io.sluice.stack.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code sluice up}'s checks of its options, before anything starts. */
class UpCommandTest {

  /**
   * The data dir is a file: were the options accepted, {@code up} would fail creating its log
   * folder (exit 1) instead of starting a stack inside the test.
   */
  private static Result up(Path dir, String... args) throws Exception {
    Path notADir = Files.writeString(dir.resolve("not-a-dir"), "");
    String[] all = new String[args.length + 2];
    all[0] = "--data-dir";
    all[1] = notADir.toString();
    System.arraycopy(args, 0, all, 2, args.length);
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new UpCommand());
    cli.setErr(new PrintWriter(err, true));
    cli.setOut(new PrintWriter(new StringWriter(), true));
    return new Result(cli.execute(all), err.toString());
  }

  private record Result(int exit, String err) {}

  @Test
  void aSinkDlqSuffixOtherThanTheRoutersIsAUsageErrorNamingBoth(@TempDir Path dir)
      throws Exception {
    Result run =
        up(
            dir,
            "--router-config",
            "dlq.topic.suffix=.quarantine",
            "--sink-config",
            "dlq.topic.suffix=.dead");

    assertThat(run.exit()).as(run.err()).isEqualTo(2);
    assertThat(run.err())
        .contains(
            "--sink-config dlq.topic.suffix=.dead differs from the router's"
                + " dlq.topic.suffix=.quarantine (--router-config)")
        .contains("set it with --router-config dlq.topic.suffix=.dead")
        .contains("leave it out of --sink-config")
        .contains("Usage: up");
  }

  @Test
  void aSinkDlqSuffixWithoutARouterOneIsRefusedAgainstTheRoutersDefault(@TempDir Path dir)
      throws Exception {
    Result run = up(dir, "--sink-config", "dlq.topic.suffix=.dead");

    assertThat(run.exit()).as(run.err()).isEqualTo(2);
    assertThat(run.err())
        .contains(
            "--sink-config dlq.topic.suffix=.dead differs from the router's"
                + " dlq.topic.suffix=.dlq (its default)");
  }
}
