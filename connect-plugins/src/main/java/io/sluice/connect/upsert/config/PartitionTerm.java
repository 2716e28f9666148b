package io.sluice.connect.upsert.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.PartitionSpec;

/**
 * One term of {@code table.partition.by}: {@code col}, {@code identity(col)}, {@code bucket(col,
 * N)} or {@code truncate(col, W)}. Only transforms that keep every row of one key in one partition
 * are offered, and only on key columns: equality deletes are partition-scoped.
 */
public record PartitionTerm(Transform transform, String column, int width) {
  private static final Pattern TERM =
      Pattern.compile(
          "^\\s*(?:(\\w+)\\s*\\(\\s*([^,()\\s]+)\\s*(?:,\\s*(\\d+)\\s*)?\\)|([^,()\\s]+))\\s*$");

  /** The supported transforms. */
  public enum Transform {
    IDENTITY,
    BUCKET,
    TRUNCATE
  }

  /** Parses a comma-separated list of terms (commas inside parentheses belong to a term). */
  public static List<PartitionTerm> parseAll(String text) {
    if (text == null || text.isBlank()) {
      return List.of();
    }
    List<PartitionTerm> terms = new ArrayList<>();
    for (String term : text.split(",(?![^()]*\\))")) {
      terms.add(parse(term));
    }
    return terms;
  }

  /**
   * Parses one term.
   *
   * @throws IllegalArgumentException naming the term and the accepted forms
   */
  public static PartitionTerm parse(String text) {
    Matcher m = TERM.matcher(text);
    if (!m.matches()) {
      throw invalid(text);
    }
    if (m.group(4) != null) {
      return new PartitionTerm(Transform.IDENTITY, m.group(4), 0);
    }
    Transform transform;
    try {
      transform = Transform.valueOf(m.group(1).toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw invalid(text);
    }
    boolean hasWidth = m.group(3) != null;
    if ((transform == Transform.IDENTITY) == hasWidth) {
      throw invalid(text);
    }
    int width = hasWidth ? Integer.parseInt(m.group(3)) : 0;
    if (hasWidth && width < 1) {
      throw invalid(text);
    }
    return new PartitionTerm(transform, m.group(2), width);
  }

  /** The term as {@code table.partition.by} writes it: {@code bucket(id, 16)}. */
  public String text() {
    return switch (transform) {
      case IDENTITY -> "identity(" + column + ")";
      case BUCKET -> "bucket(" + column + ", " + width + ")";
      case TRUNCATE -> "truncate(" + column + ", " + width + ")";
    };
  }

  /** Adds this term to {@code spec}. */
  public void addTo(PartitionSpec.Builder spec) {
    switch (transform) {
      case IDENTITY -> spec.identity(column);
      case BUCKET -> spec.bucket(column, width);
      case TRUNCATE -> spec.truncate(column, width);
    }
  }

  private static IllegalArgumentException invalid(String text) {
    return new IllegalArgumentException(
        "partition term '"
            + text.trim()
            + "' is not one of: col, identity(col), bucket(col, N), truncate(col, W) with N, W >= 1");
  }
}
