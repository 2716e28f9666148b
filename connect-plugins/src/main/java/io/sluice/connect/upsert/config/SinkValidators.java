package io.sluice.connect.upsert.config;

import java.util.List;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The validators only {@link UpsertSinkConfig}'s keys need (the shared ones are in {@code
 * io.sluice.observe.config.Validators}); {@code toString} is the configuration table's column.
 */
final class SinkValidators {
  private SinkValidators() {}

  /** Column names: non-empty, no duplicates. */
  static ConfigDef.Validator columnNames() {
    return new ConfigDef.Validator() {
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
    };
  }

  /** {@link PartitionTerm} syntax for each entry. */
  static ConfigDef.Validator partitionTerms() {
    return new ConfigDef.Validator() {
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
    };
  }
}
