package io.sluice.observe.config;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.apache.kafka.common.config.types.Password;

/**
 * Renders a {@link ConfigDef} as the Markdown table docs/configuration.md shows, so the docs cannot
 * drift from the code. Every Sluice configuration table is made here, so they all look alike;
 * {@link ConfigTable} places one in a document.
 */
public final class ConfigDocs {
  private ConfigDocs() {}

  /**
   * A Markdown table with one row per public key, in declaration order: name, type, default, valid
   * values, importance, description. Internal keys ({@code ConfigKey.internalConfig}) are left out.
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

  private static String defaultText(ConfigKey key) {
    if (!key.hasDefault()) {
      return "*required*";
    }
    Object value = key.defaultValue;
    if (value == null) {
      return "null";
    }
    // A password's default is in the code for all to read; Password.toString() would say [hidden].
    String text =
        value instanceof List<?> list
            ? list.stream().map(String::valueOf).collect(Collectors.joining(","))
            : value instanceof Password password
                ? password.value()
                : ConfigDef.convertToString(value, key.type);
    return "`" + cell(text.replace("`", "'")) + "`";
  }

  private static String cell(String text) {
    return text.replace("\r", " ").replace("\n", " ").replace("|", "\\|");
  }
}
