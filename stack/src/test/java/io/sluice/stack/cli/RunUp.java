package io.sluice.stack.cli;

import picocli.CommandLine;

/** {@code sluice up} as its own JVM, for {@link UpStopsOnSigtermIT}. */
public final class RunUp {
  private RunUp() {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new UpCommand()).execute(args));
  }
}
