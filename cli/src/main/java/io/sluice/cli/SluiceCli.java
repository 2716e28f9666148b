package io.sluice.cli;

import io.sluice.bench.cli.BenchCommand;
import io.sluice.scenarios.cli.VerifyCommand;
import io.sluice.stack.cli.LoadCommand;
import io.sluice.stack.cli.StackCommand;
import io.sluice.stack.cli.UpCommand;
import io.sluice.tools.cli.OperatorCli;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The developer's {@code sluice} command ({@code scripts/sluice} runs this class): the operator
 * commands of {@code tools} plus the embedded stack, its workload and scenarios ({@code lab}) and
 * the benchmarks ({@code bench}). It only assembles them; each command lives with its job.
 */
@Command(
    name = "sluice",
    mixinStandardHelpOptions = true,
    versionProvider = OperatorCli.Version.class,
    description = "Sluice keeps poison records out of a CDC lakehouse without stopping it.",
    subcommands = {
      UpCommand.class,
      LoadCommand.class,
      ConfigDocsCommand.class,
      BenchCommand.class,
      VerifyCommand.class,
      StackCommand.class
    })
public final class SluiceCli implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing command: see the list above");
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line (errors as {@link OperatorCli#configure} prints them). */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new SluiceCli());
    OperatorCli.addOperatorCommands(cli);
    cli.addSubcommand(new CommandLine.HelpCommand());
    return OperatorCli.configure(cli);
  }
}
