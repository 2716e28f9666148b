package io.sluice.observe.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.observe.config.ConfigTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The check of a component's docs test: {@value #DOCUMENT} (the tables were in the README once,
 * hence the name) shows its configuration table as generated from the ConfigDef. Shipped in the
 * test-jar of {@code sluice-observe}, so each component's docs test is one call instead of a copy
 * of this.
 */
public final class ReadmeTables {
  /** With this system property {@code true}, a stale table is rewritten instead of failing. */
  public static final String WRITE_PROPERTY = "sluice.configDocs.write";

  /**
   * The document of the generated tables, relative to the checkout; {@code sluice config-docs}
   * writes the same file.
   */
  public static final String DOCUMENT = "docs/configuration.md";

  private ReadmeTables() {}

  /**
   * Asserts that the nearest {@value #DOCUMENT} at or above the working directory that holds {@code
   * table}'s markers shows the generated table; with {@code -Dsluice.configDocs.write=true} it
   * first rewrites a stale one there.
   *
   * @param module the Maven module of {@code test}, for the regeneration command in the message
   * @param test the calling docs test
   */
  public static void assertCurrent(ConfigTable table, String module, Class<?> test)
      throws IOException {
    Path document = table.findDocument(Path.of(""), DOCUMENT);
    String text = Files.readString(document, StandardCharsets.UTF_8);
    if (Boolean.getBoolean(WRITE_PROPERTY) && !table.isCurrentIn(text)) {
      text = table.regenerate(text);
      Files.writeString(document, text, StandardCharsets.UTF_8);
    }
    assertThat(table.currentIn(text))
        .as(
            "%s table in %s is out of date; regenerate it with `scripts/sluice config-docs`, or"
                + " without the CLI: `mvn -q -pl %s -am test -Dtest=%s"
                + " -Dsurefire.failIfNoSpecifiedTests=false -D%s=true`",
            table.title(), document, module, test.getSimpleName(), WRITE_PROPERTY)
        .isEqualTo(table.currentIn(table.regenerate(text)));
  }
}
