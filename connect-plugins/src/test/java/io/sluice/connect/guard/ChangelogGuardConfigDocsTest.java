package io.sluice.connect.guard;

import io.sluice.observe.testing.ReadmeTables;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The changelog guard table of docs/configuration.md must be the one generated from the ConfigDef.
 */
class ChangelogGuardConfigDocsTest {
  @Test
  void documentedTableMatchesTheConfigDef() throws IOException {
    ReadmeTables.assertCurrent(
        ChangelogGuardConfig.docsTable(), "connect-plugins", ChangelogGuardConfigDocsTest.class);
  }
}
