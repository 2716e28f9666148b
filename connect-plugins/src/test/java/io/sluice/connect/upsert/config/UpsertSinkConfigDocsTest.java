package io.sluice.connect.upsert.config;

import static io.sluice.connect.upsert.config.UpsertSinkConfig.README_END_MARKER;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.README_START_MARKER;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.router.config.ConfigDocs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The README's upsert sink table must be the one generated from the ConfigDef (by the router's
 * {@link ConfigDocs#markdownTable}, so both tables look alike).
 */
class UpsertSinkConfigDocsTest {
  private static final String REGENERATE =
      "regenerate it with `mvn -q -o -pl connect-plugins test -Dtest=UpsertSinkConfigDocsTest"
          + " -Dsluice.configDocs.write=true`";

  @Test
  void readmeTableMatchesTheConfigDef() throws IOException {
    Path readme = findReadme();
    String text = Files.readString(readme, StandardCharsets.UTF_8);
    String generated = replaceBetweenMarkers(text, table());
    if (Boolean.getBoolean("sluice.configDocs.write") && !generated.equals(text)) {
      Files.writeString(readme, generated, StandardCharsets.UTF_8);
      text = generated;
    }
    assertThat(betweenMarkers(text))
        .as("upsert sink config table in %s is out of date; %s", readme, REGENERATE)
        .isEqualTo(betweenMarkers(generated));
  }

  @Test
  void tableHasOneRowPerPublicKeyAndHidesTheInternalOnes() {
    String table = table();
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

  private static String table() {
    return ConfigDocs.markdownTable(UpsertSinkConfig.configDef());
  }

  private static String replaceBetweenMarkers(String readme, String table) {
    int start = readme.indexOf(README_START_MARKER);
    int end = readme.indexOf(README_END_MARKER);
    assertThat(start)
        .as("README has %s before %s", README_START_MARKER, README_END_MARKER)
        .isGreaterThanOrEqualTo(0)
        .isLessThan(end);
    return readme.substring(0, start + README_START_MARKER.length())
        + "\n"
        + table
        + readme.substring(end);
  }

  private static String betweenMarkers(String readme) {
    return readme.substring(
        readme.indexOf(README_START_MARKER) + README_START_MARKER.length(),
        readme.indexOf(README_END_MARKER));
  }

  /** The repository README: surefire runs in the module dir, IDEs may run at the root. */
  private static Path findReadme() throws IOException {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("README.md");
      if (Files.isRegularFile(candidate)
          && Files.readString(candidate, StandardCharsets.UTF_8).contains(README_START_MARKER)) {
        return candidate;
      }
    }
    throw new AssertionError("no README.md with " + README_START_MARKER + " above the cwd");
  }
}
