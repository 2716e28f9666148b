package io.sluice.connect.upsert.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.observe.testing.ReadmeTables;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The upsert sink table of docs/configuration.md must be the one generated from the ConfigDef. */
class UpsertSinkConfigDocsTest {
  @Test
  void documentedTableMatchesTheConfigDef() throws IOException {
    ReadmeTables.assertCurrent(
        UpsertSinkConfig.docsTable(), "connect-plugins", UpsertSinkConfigDocsTest.class);
  }

  @Test
  void tableHasOneRowPerPublicKeyAndHidesTheInternalOnes() {
    String table = UpsertSinkConfig.docsTable().markdown();
    long internal =
        UpsertSinkConfig.configDef().configKeys().values().stream()
            .filter(k -> k.internalConfig)
            .count();
    assertThat(internal).isEqualTo(1);
    assertThat(table.lines().count())
        .isEqualTo(2 + UpsertSinkConfig.configDef().names().size() - internal);
    assertThat(table)
        .contains("| `input.format` | string | `debezium` | [debezium, flat] | high |");
    assertThat(table).doesNotContain("sluice.test.fail.after.commits");
    assertThat(table).doesNotContain("sluice.test.fail.after.dlq.writes");
    assertThat(UpsertSinkConfig.configDef().names()).noneMatch(k -> k.startsWith("sluice.test."));
    assertThat(table)
        .contains("| `errors.sink.tolerance` | string | `none` | [none, all] | high |");
  }
}
