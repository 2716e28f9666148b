package io.sluice.connect.guard;

import io.sluice.observe.testing.ReadmeTables;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The README's changelog guard table must be the one generated from the ConfigDef. */
class ChangelogGuardConfigDocsTest {
  @Test
  void readmeTableMatchesTheConfigDef() throws IOException {
    ReadmeTables.assertCurrent(
        ChangelogGuardConfig.docsTable(), "connect-plugins", ChangelogGuardConfigDocsTest.class);
  }
}
