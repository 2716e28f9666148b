package io.sluice.router.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.observe.config.ConfigTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's router configuration table must be the one generated from the ConfigDef. */
class RouterConfigDocsTest {
  private static final String REGENERATE =
      "regenerate it with `scripts/sluice config-docs`, or without the CLI: `mvn -q -pl router -am"
          + " test -Dtest=RouterConfigDocsTest -Dsurefire.failIfNoSpecifiedTests=false"
          + " -Dsluice.configDocs.write=true`";

  @Test
  void readmeTableMatchesTheConfigDef() throws IOException {
    ConfigTable table = RouterConfig.docsTable();
    Path readme = table.findDocument(Path.of(""), "README.md");
    String text = Files.readString(readme, StandardCharsets.UTF_8);
    if (Boolean.getBoolean("sluice.configDocs.write") && !table.isCurrentIn(text)) {
      text = table.regenerate(text);
      Files.writeString(readme, text, StandardCharsets.UTF_8);
    }
    assertThat(table.currentIn(text))
        .as("router config table in %s is out of date; %s", readme, REGENERATE)
        .isEqualTo(table.currentIn(table.regenerate(text)));
  }

  @Test
  void tableHasOneRowPerKeyWithEscapedPipes() {
    String table = RouterConfig.docsTable().markdown();
    assertThat(table.lines().count()).isEqualTo(2 + RouterConfig.configDef().names().size());
    assertThat(table).contains("| `bootstrap.servers` | list | *required* |");
    assertThat(table).contains("| `application.id` | string | `sluice-router` |");
    assertThat(table).contains("(?:clean\\|dlq\\|repairs)");
  }
}
