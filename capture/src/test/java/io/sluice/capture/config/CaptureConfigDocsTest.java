package io.sluice.capture.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.observe.testing.ReadmeTables;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The capture configuration table of docs/configuration.md must be the one generated from the
 * ConfigDef.
 */
class CaptureConfigDocsTest {
  @Test
  void documentedTableMatchesTheConfigDef() throws IOException {
    ReadmeTables.assertCurrent(CaptureConfig.docsTable(), "capture", CaptureConfigDocsTest.class);
  }

  @Test
  void tableHasOneRowPerKeyAndShowsTheEmptyPasswordDefault() {
    String table = CaptureConfig.docsTable().markdown();
    assertThat(table.lines().count()).isEqualTo(2 + CaptureConfig.configDef().names().size());
    assertThat(table).contains("| `database.user` | string | *required* | non-empty string |");
    assertThat(table).contains("| `database.password` | password | `` |  |");
    assertThat(table).contains("| `schema.registry.url` | string | *required* | http(s) URL |");
  }
}
