package io.sluice.observe.config;

import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * ConfigDef validators that several Sluice components share. Each names the key and the bad value
 * (through {@link ConfigException}); its {@code toString} is the "Valid values" column of the
 * generated docs.
 */
public final class Validators {
  private Validators() {}

  /** A non-empty Java regex that compiles. */
  public static ConfigDef.Validator regex() {
    return new Described(
        "Java regex",
        (name, value) -> {
          String regex = (String) value;
          if (regex == null || regex.isBlank()) {
            throw new ConfigException(name, value, "must be a non-empty Java regex");
          }
          try {
            Pattern.compile(regex);
          } catch (PatternSyntaxException e) {
            throw new ConfigException(name, value, "not a valid Java regex: " + e.getDescription());
          }
        });
  }

  /** An http:// or https:// URL. */
  public static ConfigDef.Validator httpUrl() {
    return new Described(
        "http(s) URL",
        (name, value) -> {
          String url = (String) value;
          if (url == null || !(url.startsWith("http://") || url.startsWith("https://"))) {
            throw new ConfigException(name, value, "must be an http:// or https:// URL");
          }
        });
  }

  /** -1 (the broker's default) or a positive replication factor. */
  public static ConfigDef.Validator replicationFactor() {
    return new Described(
        "-1 or [1,...]",
        (name, value) -> {
          int rf = (Integer) value;
          if (rf != -1 && (rf < 1 || rf > Short.MAX_VALUE)) {
            throw new ConfigException(name, value, "must be -1 (broker default) or at least 1");
          }
        });
  }

  /** A non-empty list whose items are not blank. */
  public static ConfigDef.Validator nonBlankList() {
    return new Described(
        "non-empty list",
        (name, value) -> {
          List<?> items = (List<?>) value;
          if (items == null || items.isEmpty()) {
            throw new ConfigException(name, value, "at least one value is required");
          }
          for (Object item : items) {
            if (String.valueOf(item).isBlank()) {
              throw new ConfigException(name, value, "blank values are not allowed");
            }
          }
        });
  }

  /** A validator with the description the docs show. */
  private record Described(String description, ConfigDef.Validator check)
      implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      check.ensureValid(name, value);
    }

    @Override
    public String toString() {
      return description;
    }
  }
}
