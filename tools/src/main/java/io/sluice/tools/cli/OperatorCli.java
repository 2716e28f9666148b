package io.sluice.tools.cli;

import io.sluice.tools.dlq.DlqCommand;
import io.sluice.tools.monitor.MonitorCommand;
import io.sluice.tools.reconcile.ReconcileCommand;
import io.sluice.tools.table.TableCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The operator's {@code sluice} command, as the Sluice image ships it: the commands that work
 * against any running stack (embedded or compose) and need none of its components on the classpath.
 * The developer's {@code scripts/sluice} adds the stack and the benchmarks to the same commands.
 */
@Command(
    name = "sluice",
    mixinStandardHelpOptions = true,
    versionProvider = OperatorCli.Version.class,
    description = "Sluice keeps poison records out of a CDC lakehouse without stopping it.")
public final class OperatorCli implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing command: see the list above");
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The operator's command line, configured. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new OperatorCli());
    addOperatorCommands(cli);
    cli.addSubcommand(new CommandLine.HelpCommand());
    return configure(cli);
  }

  /**
   * Adds the operator's commands to {@code cli}: the developer's {@code sluice} has each of them
   * too, from this one list.
   */
  public static void addOperatorCommands(CommandLine cli) {
    cli.addSubcommand(new DlqCommand());
    cli.addSubcommand(new TableCommand());
    cli.addSubcommand(new ReconcileCommand());
    cli.addSubcommand(new MonitorCommand());
  }

  /**
   * Sets how every Sluice command line fails: a command that throws prints one line naming the
   * command and the cause (no stack trace: details are in the log) and exits with 1.
   */
  public static CommandLine configure(CommandLine cli) {
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          commandLine
              .getErr()
              .println(commandLine.getCommandSpec().qualifiedName() + ": " + describe(e));
          return 1;
        });
    return cli;
  }

  private static String describe(Throwable e) {
    StringBuilder message = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause.getMessage() != null && !message.toString().contains(cause.getMessage())) {
        message.append(": ").append(cause.getMessage());
      }
    }
    return message.toString();
  }

  /** The version of the jar (from its manifest), or "dev" when run from classes. */
  public static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = OperatorCli.class.getPackage().getImplementationVersion();
      return new String[] {"sluice " + (version == null ? "dev" : version)};
    }
  }
}
