package io.sluice.router.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;

/**
 * Generates the README's configuration table from a {@link ConfigDef}, so the docs cannot drift
 * from the code ({@code RouterConfigDocsTest} fails when they do).
 */
public final class ConfigDocs {
  public static final String START_MARKER = "<!-- router-config:start -->";
  public static final String END_MARKER = "<!-- router-config:end -->";

  private ConfigDocs() {}

  /**
   * A Markdown table with one row per key, in declaration order: name, type, default, valid values,
   * importance, description.
   */
  public static String markdownTable(ConfigDef def) {
    StringBuilder out = new StringBuilder();
    out.append("| Name | Type | Default | Valid values | Importance | Description |\n");
    out.append("|---|---|---|---|---|---|\n");
    for (ConfigKey key : def.configKeys().values()) {
      if (key.internalConfig) {
        continue;
      }
      out.append("| `")
          .append(key.name)
          .append("` | ")
          .append(key.type.name().toLowerCase(Locale.ROOT))
          .append(" | ")
          .append(defaultText(key))
          .append(" | ")
          .append(cell(key.validator == null ? "" : key.validator.toString()))
          .append(" | ")
          .append(key.importance.name().toLowerCase(Locale.ROOT))
          .append(" | ")
          .append(cell(key.documentation))
          .append(" |\n");
    }
    return out.toString();
  }

  /**
   * {@code readme} with the text between {@link #START_MARKER} and {@link #END_MARKER} replaced by
   * {@code table}.
   *
   * @throws IllegalArgumentException when a marker is missing or they are out of order
   */
  public static String replaceBetweenMarkers(String readme, String table) {
    int start = readme.indexOf(START_MARKER);
    int end = readme.indexOf(END_MARKER);
    if (start < 0 || end < 0 || end < start) {
      throw new IllegalArgumentException(
          "README has no '" + START_MARKER + "' ... '" + END_MARKER + "' block");
    }
    int contentStart = start + START_MARKER.length();
    return readme.substring(0, contentStart) + "\n" + table + readme.substring(end);
  }

  /** The text currently between the markers of {@code readme}, as {@code replace} writes it. */
  public static String betweenMarkers(String readme) {
    int start = readme.indexOf(START_MARKER);
    int end = readme.indexOf(END_MARKER);
    if (start < 0 || end < 0 || end < start) {
      throw new IllegalArgumentException(
          "README has no '" + START_MARKER + "' ... '" + END_MARKER + "' block");
    }
    return readme.substring(start + START_MARKER.length(), end);
  }

  /** Rewrites the router table of the README given as the only argument. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1 || args[0].startsWith("-")) {
      System.out.println("usage: ConfigDocs <path/to/README.md>");
      System.out.println("Rewrites the router configuration table between the markers.");
      return;
    }
    Path readme = Path.of(args[0]);
    String text = Files.readString(readme, StandardCharsets.UTF_8);
    String updated = replaceBetweenMarkers(text, markdownTable(RouterConfig.configDef()));
    Files.writeString(readme, updated, StandardCharsets.UTF_8);
    System.out.println("wrote router configuration table to " + readme);
  }

  private static String defaultText(ConfigKey key) {
    if (!key.hasDefault()) {
      return "*required*";
    }
    Object value = key.defaultValue;
    if (value == null) {
      return "null";
    }
    String text =
        value instanceof List<?> list
            ? list.stream().map(String::valueOf).collect(Collectors.joining(","))
            : ConfigDef.convertToString(value, key.type);
    return "`" + cell(text.replace("`", "'")) + "`";
  }

  private static String cell(String text) {
    return text.replace("\r", " ").replace("\n", " ").replace("|", "\\|");
  }
}
