package io.sluice.router.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's router configuration table must be the one generated from the ConfigDef. */
class RouterConfigDocsTest {
  private static final String REGENERATE =
      "regenerate it with `scripts/sluice config-docs`, or without the CLI: `mvn -q -o -pl router"
          + " test -Dtest=RouterConfigDocsTest -Dsluice.configDocs.write=true`";

  @Test
  void readmeTableMatchesTheConfigDef() throws IOException {
    Path readme = findReadme();
    String text = Files.readString(readme, StandardCharsets.UTF_8);
    String generated = ConfigDocs.replaceBetweenMarkers(text, table());
    if (Boolean.getBoolean("sluice.configDocs.write") && !generated.equals(text)) {
      Files.writeString(readme, generated, StandardCharsets.UTF_8);
      text = generated;
    }
    assertThat(ConfigDocs.betweenMarkers(text))
        .as("router config table in %s is out of date; %s", readme, REGENERATE)
        .isEqualTo(ConfigDocs.betweenMarkers(generated));
  }

  @Test
  void tableHasOneRowPerKeyWithEscapedPipes() {
    String table = table();
    assertThat(table.lines().count()).isEqualTo(2 + RouterConfig.configDef().names().size());
    assertThat(table).contains("| `bootstrap.servers` | list | *required* |");
    assertThat(table).contains("| `application.id` | string | `sluice-router` |");
    assertThat(table).contains("(?:clean\\|dlq\\|repairs)");
  }

  @Test
  void replacingNeedsBothMarkers() {
    assertThatThrownBy(() -> ConfigDocs.replaceBetweenMarkers("# no markers", "t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(ConfigDocs.START_MARKER);
  }

  @Test
  void replacingKeepsTheTextAroundTheMarkers() {
    String readme = "a\n" + ConfigDocs.START_MARKER + "\nold\n" + ConfigDocs.END_MARKER + "\nb\n";
    assertThat(ConfigDocs.replaceBetweenMarkers(readme, "new\n"))
        .isEqualTo("a\n" + ConfigDocs.START_MARKER + "\nnew\n" + ConfigDocs.END_MARKER + "\nb\n");
  }

  private static String table() {
    return ConfigDocs.markdownTable(RouterConfig.configDef());
  }

  /** The repository README: surefire runs in the module dir, IDEs may run at the root. */
  private static Path findReadme() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("README.md");
      if (Files.isRegularFile(candidate) && containsMarker(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("no README.md with " + ConfigDocs.START_MARKER + " above the cwd");
  }

  private static boolean containsMarker(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8).contains(ConfigDocs.START_MARKER);
    } catch (IOException e) {
      return false;
    }
  }
}
