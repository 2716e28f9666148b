package io.sluice.lab.cli;

import io.sluice.tools.dlq.DlqCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The {@code sluice} command line: {@code scripts/sluice} runs this class. */
@Command(
    name = "sluice",
    mixinStandardHelpOptions = true,
    versionProvider = SluiceCli.Version.class,
    description = "Sluice keeps poison records out of a CDC lakehouse without stopping it.",
    subcommands = {
      UpCommand.class,
      LoadCommand.class,
      ConfigDocsCommand.class,
      BenchCommand.class,
      DlqCommand.class,
      TableCommand.class,
      ReconcileCommand.class,
      VerifyCommand.class,
      io.sluice.tools.monitor.MonitorCommand.class,
      CommandLine.HelpCommand.class
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

  /**
   * The configured command line. A command that fails prints one line naming the command and the
   * cause (no stack trace: details are in the log) and exits with 1.
   */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new SluiceCli());
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

  /** The version of the lab jar (from its manifest), or "dev" when run from classes. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = SluiceCli.class.getPackage().getImplementationVersion();
      return new String[] {"sluice " + (version == null ? "dev" : version)};
    }
  }
}
