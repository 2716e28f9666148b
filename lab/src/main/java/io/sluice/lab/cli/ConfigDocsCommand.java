package io.sluice.lab.cli;

import io.sluice.capture.config.CaptureConfig;
import io.sluice.connect.guard.ChangelogGuardConfig;
import io.sluice.connect.upsert.config.UpsertSinkConfig;
import io.sluice.observe.config.ConfigTable;
import io.sluice.router.config.RouterConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sluice config-docs}: regenerates the configuration tables of the README. */
@Command(
    name = "config-docs",
    mixinStandardHelpOptions = true,
    description = {
      "Regenerates the configuration tables in the README (router, capture, upsert sink,"
          + " changelog guard; each"
          + " between its <!-- name:start --> and <!-- name:end --> markers) from the components' ConfigDefs."
          + " With --check, only reports whether they are up to date."
    })
public final class ConfigDocsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--readme",
      defaultValue = "${env:SLUICE_HOME:-.}/README.md",
      description = "The README to update (default: README.md of the Sluice checkout).")
  Path readme;

  @Option(
      names = "--check",
      description = "Change nothing; exit 1 when a table differs from its ConfigDef.")
  boolean check;

  /** Every generated table of the README. */
  public static List<ConfigTable> tables() {
    return List.of(
        RouterConfig.docsTable(),
        CaptureConfig.docsTable(),
        UpsertSinkConfig.docsTable(),
        ChangelogGuardConfig.docsTable());
  }

  @Override
  public Integer call() throws IOException {
    String text = Files.readString(readme, StandardCharsets.UTF_8);
    List<ConfigTable> stale = tables().stream().filter(t -> !t.isCurrentIn(text)).toList();
    if (stale.isEmpty()) {
      spec.commandLine().getOut().println(readme + ": every configuration table is up to date");
      return 0;
    }
    String names = String.join(", ", stale.stream().map(ConfigTable::title).toList());
    if (check) {
      spec.commandLine()
          .getErr()
          .println(readme + ": out of date: " + names + "; run scripts/sluice config-docs");
      return 1;
    }
    String updated = text;
    for (ConfigTable table : stale) {
      updated = table.regenerate(updated);
    }
    Files.writeString(readme, updated, StandardCharsets.UTF_8);
    spec.commandLine().getOut().println(readme + ": regenerated " + names);
    return 0;
  }
}
