package io.sluice.connect.upsert.config;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** The validators of {@link UpsertSinkConfig}'s keys; {@code toString} is the README's column. */
final class Validators {
  private Validators() {}

  /** A compilable Java regex. */
  static final class Regex implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      String regex = (String) value;
      if (regex == null || regex.isBlank()) {
        throw new ConfigException(name, value, "must be a non-empty Java regex");
      }
      try {
        Pattern.compile(regex);
      } catch (PatternSyntaxException e) {
        throw new ConfigException(name, value, "not a Java regex: " + e.getDescription());
      }
    }

    @Override
    public String toString() {
      return "Java regex";
    }
  }

  /** Column names: non-empty, no duplicates. */
  static final class ColumnNames implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      @SuppressWarnings("unchecked")
      List<String> columns = (List<String>) value;
      if (columns.stream().anyMatch(String::isBlank)) {
        throw new ConfigException(name, value, "column names must not be empty");
      }
      if (Set.copyOf(columns).size() != columns.size()) {
        throw new ConfigException(name, value, "a column is listed twice");
      }
    }

    @Override
    public String toString() {
      return "column names";
    }
  }

  /** {@link PartitionTerm} syntax for each entry. */
  static final class PartitionTerms implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      try {
        PartitionTerm.parseAll((String) value);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "comma-separated col, bucket(col, N), truncate(col, W)";
    }
  }
}
