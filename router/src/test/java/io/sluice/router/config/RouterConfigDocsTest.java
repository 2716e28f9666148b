package io.sluice.router.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.observe.testing.ReadmeTables;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The router configuration table of docs/configuration.md must be the one generated from the
 * ConfigDef.
 */
class RouterConfigDocsTest {
  @Test
  void documentedTableMatchesTheConfigDef() throws IOException {
    ReadmeTables.assertCurrent(RouterConfig.docsTable(), "router", RouterConfigDocsTest.class);
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
