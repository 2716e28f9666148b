package io.sluice.connect.upsert.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.observe.config.ConfigTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's upsert sink table must be the one generated from the ConfigDef. */
class UpsertSinkConfigDocsTest {
  private static final String REGENERATE =
      "regenerate it with `scripts/sluice config-docs`, or without the CLI: `mvn -q -pl"
          + " connect-plugins -am test -Dtest=UpsertSinkConfigDocsTest"
          + " -Dsurefire.failIfNoSpecifiedTests=false -Dsluice.configDocs.write=true`";

  @Test
  void readmeTableMatchesTheConfigDef() throws IOException {
    ConfigTable table = UpsertSinkConfig.docsTable();
    Path readme = table.findDocument(Path.of(""), "README.md");
    String text = Files.readString(readme, StandardCharsets.UTF_8);
    if (Boolean.getBoolean("sluice.configDocs.write") && !table.isCurrentIn(text)) {
      text = table.regenerate(text);
      Files.writeString(readme, text, StandardCharsets.UTF_8);
    }
    assertThat(table.currentIn(text))
        .as("upsert sink config table in %s is out of date; %s", readme, REGENERATE)
        .isEqualTo(table.currentIn(table.regenerate(text)));
  }

  @Test
  void tableHasOneRowPerPublicKeyAndHidesTheInternalOnes() {
    String table = UpsertSinkConfig.docsTable().markdown();
    long internal =
        UpsertSinkConfig.configDef().configKeys().values().stream()
            .filter(k -> k.internalConfig)
            .count();
    assertThat(internal).isEqualTo(2);
    assertThat(table.lines().count())
        .isEqualTo(2 + UpsertSinkConfig.configDef().names().size() - internal);
    assertThat(table)
        .contains("| `input.format` | string | `debezium` | [debezium, flat] | high |");
    assertThat(table).doesNotContain("sluice.test.fail.after.commits");
  }
}
