package io.sluice.observe.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigTableTest {
  @TempDir Path dir;

  private static final ConfigTable TABLE =
      new ConfigTable(
          "demo-config",
          "demo configuration",
          new ConfigDef()
              .define("a.url", Type.STRING, "http://x", Validators.httpUrl(), Importance.HIGH, "A.")
              .define("b.pattern", Type.STRING, "x|y", Importance.LOW, "Either\nx | y.")
              .define("c.required", Type.LIST, Importance.MEDIUM, "Needed.")
              .defineInternal("d.internal", Type.INT, 1, Importance.LOW));

  @Test
  void tableHasOneRowPerPublicKeyWithEscapedPipesAndNewlines() {
    assertThat(TABLE.markdown())
        .isEqualTo(
            "| Name | Type | Default | Valid values | Importance | Description |\n"
                + "|---|---|---|---|---|---|\n"
                + "| `a.url` | string | `http://x` | http(s) URL | high | A. |\n"
                + "| `b.pattern` | string | `x\\|y` |  | low | Either x \\| y. |\n"
                + "| `c.required` | list | *required* |  | medium | Needed. |\n");
  }

  @Test
  void aPasswordDefaultIsShownAsItIsNotAsHidden() {
    ConfigDef def = new ConfigDef().define("db.password", Type.PASSWORD, "", Importance.HIGH, "P.");

    assertThat(ConfigDocs.markdownTable(def)).contains("| `db.password` | password | `` |  |");
  }

  @Test
  void regeneratingReplacesOnlyTheTextBetweenTheMarkers() {
    String doc = "a\n<!-- demo-config:start -->\nold\n<!-- demo-config:end -->\nb\n";

    String regenerated = TABLE.regenerate(doc);

    assertThat(regenerated)
        .isEqualTo(
            "a\n<!-- demo-config:start -->\n" + TABLE.markdown() + "<!-- demo-config:end -->\nb\n");
    assertThat(TABLE.isCurrentIn(doc)).isFalse();
    assertThat(TABLE.isCurrentIn(regenerated)).isTrue();
  }

  @Test
  void aDocumentWithoutBothMarkersIsNamedInTheError() {
    assertThatThrownBy(() -> TABLE.regenerate("# no end\n<!-- demo-config:start -->\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "the document has no '<!-- demo-config:start -->' ... '<!-- demo-config:end -->'"
                + " block for the demo configuration table");
  }

  @Test
  void findsTheNearestDocumentWithTheMarkerAboveADirectory() throws Exception {
    Path nested = Files.createDirectories(dir.resolve("module/src"));
    Files.writeString(dir.resolve("module/README.md"), "no marker here\n");
    Files.writeString(dir.resolve("README.md"), TABLE.startMarker() + "\n" + TABLE.endMarker());

    assertThat(TABLE.findDocument(nested, "README.md")).isEqualTo(dir.resolve("README.md"));
    Files.createDirectories(dir.resolve("module/docs"));
    Files.writeString(dir.resolve("module/docs/configuration.md"), TABLE.startMarker());
    assertThat(TABLE.findDocument(nested, "docs/configuration.md"))
        .isEqualTo(dir.resolve("module/docs/configuration.md"));
    assertThatThrownBy(() -> TABLE.findDocument(nested, "OTHER.md"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("no OTHER.md with <!-- demo-config:start --> at or above ");
  }

  @Test
  void sharedValidatorsNameTheKeyAndTheProblem() {
    assertThatThrownBy(() -> Validators.regex().ensureValid("topics.regex", "("))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("topics.regex")
        .hasMessageContaining("not a valid Java regex");
    assertThatThrownBy(() -> Validators.regex().ensureValid("topics.regex", " "))
        .hasMessageContaining("must be a non-empty Java regex");
    assertThatThrownBy(() -> Validators.httpUrl().ensureValid("registry.url", "localhost:8081"))
        .hasMessageContaining("must be an http:// or https:// URL");
    assertThatThrownBy(() -> Validators.replicationFactor().ensureValid("rf", 0))
        .hasMessageContaining("must be -1 (broker default) or at least 1");
    assertThatThrownBy(
            () -> Validators.nonBlankList().ensureValid("servers", java.util.List.of("a", " ")))
        .hasMessageContaining("blank values are not allowed");
    Validators.replicationFactor().ensureValid("rf", -1);
    Validators.nonBlankList().ensureValid("servers", java.util.List.of("a"));
  }
}
