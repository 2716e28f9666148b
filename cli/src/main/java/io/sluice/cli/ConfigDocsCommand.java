package io.sluice.cli;

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

/**
 * {@code sluice config-docs}: regenerates the configuration tables of docs/configuration.md (the
 * README links to it; the tables were in the README before, so {@code --readme} still names the
 * file).
 */
@Command(
    name = "config-docs",
    mixinStandardHelpOptions = true,
    description = {
      "Regenerates the configuration tables in docs/configuration.md (router, capture, upsert"
          + " sink, changelog guard; each between its <!-- name:start --> and <!-- name:end -->"
          + " markers) from the components' ConfigDefs. With --check, only reports whether they"
          + " are up to date."
    })
public final class ConfigDocsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = {"--doc", "--readme"},
      paramLabel = "FILE",
      defaultValue = "${env:SLUICE_HOME:-.}/" + DOCUMENT,
      description = {
        "The Markdown file holding the tables (default: " + DOCUMENT + " of the Sluice checkout).",
        "--readme is its former name, still accepted; the README itself no longer holds them."
      })
  Path doc;

  @Option(
      names = "--check",
      description = "Change nothing; exit 1 when a table differs from its ConfigDef.")
  boolean check;

  /** The document of the tables, relative to the checkout. */
  public static final String DOCUMENT = "docs/configuration.md";

  /** Every generated table of {@link #DOCUMENT}. */
  public static List<ConfigTable> tables() {
    return List.of(
        RouterConfig.docsTable(),
        CaptureConfig.docsTable(),
        UpsertSinkConfig.docsTable(),
        ChangelogGuardConfig.docsTable());
  }

  @Override
  public Integer call() throws IOException {
    String text = Files.readString(doc, StandardCharsets.UTF_8);
    List<ConfigTable> missing =
        tables().stream().filter(t -> !text.contains(t.startMarker())).toList();
    if (!missing.isEmpty()) {
      spec.commandLine()
          .getErr()
          .println(
              doc
                  + ": no "
                  + String.join(", ", missing.stream().map(ConfigTable::startMarker).toList())
                  + "; the tables live in "
                  + DOCUMENT
                  + " of the Sluice checkout");
      return 2;
    }
    List<ConfigTable> stale = tables().stream().filter(t -> !t.isCurrentIn(text)).toList();
    if (stale.isEmpty()) {
      spec.commandLine().getOut().println(doc + ": every configuration table is up to date");
      return 0;
    }
    String names = String.join(", ", stale.stream().map(ConfigTable::title).toList());
    if (check) {
      spec.commandLine()
          .getErr()
          .println(doc + ": out of date: " + names + "; run scripts/sluice config-docs");
      return 1;
    }
    String updated = text;
    for (ConfigTable table : stale) {
      updated = table.regenerate(updated);
    }
    Files.writeString(doc, updated, StandardCharsets.UTF_8);
    spec.commandLine().getOut().println(doc + ": regenerated " + names);
    return 0;
  }
}
