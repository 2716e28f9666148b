package io.sluice.lab.cli;

import io.sluice.router.config.ConfigDocs;
import io.sluice.router.config.RouterConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sluice config-docs}: regenerates the router configuration table of the README. */
@Command(
    name = "config-docs",
    mixinStandardHelpOptions = true,
    description = {
      "Regenerates the router configuration table in the README (between the router-config"
          + " markers) from the router's ConfigDef. With --check, only reports whether it is"
          + " up to date."
    })
final class ConfigDocsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--readme",
      defaultValue = "${env:SLUICE_HOME:-.}/README.md",
      description = "The README to update (default: README.md of the Sluice checkout).")
  Path readme;

  @Option(
      names = "--check",
      description = "Change nothing; exit 1 when the table differs from the ConfigDef.")
  boolean check;

  @Override
  public Integer call() throws IOException {
    String current = Files.readString(readme, StandardCharsets.UTF_8);
    String updated =
        ConfigDocs.replaceBetweenMarkers(
            current, ConfigDocs.markdownTable(RouterConfig.configDef()));
    if (updated.equals(current)) {
      spec.commandLine().getOut().println(readme + ": router config table is up to date");
      return 0;
    }
    if (check) {
      spec.commandLine()
          .getErr()
          .println(readme + ": router config table is out of date; run scripts/sluice config-docs");
      return 1;
    }
    Files.writeString(readme, updated, StandardCharsets.UTF_8);
    spec.commandLine().getOut().println(readme + ": router config table regenerated");
    return 0;
  }
}
