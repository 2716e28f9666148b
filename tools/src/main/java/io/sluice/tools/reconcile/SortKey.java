package io.sluice.tools.reconcile;

import java.math.BigDecimal;
import java.util.Arrays;

/**
 * A row's primary-key values, ordered the way the database orders them: numbers numerically, text
 * by code point, then column by column. Comparable across stores whatever Java type each reader
 * hands out for the same column (Integer vs Long, BigDecimal vs Long).
 */
public record SortKey(Object[] values) implements Comparable<SortKey> {

  public static SortKey of(Object... values) {
    Object[] normalized = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      normalized[i] = normalize(values[i]);
    }
    return new SortKey(normalized);
  }

  private static Object normalize(Object value) {
    if (value instanceof Byte || value instanceof Short || value instanceof Integer) {
      return ((Number) value).longValue();
    }
    if (value instanceof Long || value instanceof BigDecimal || value == null) {
      return value;
    }
    if (value instanceof Number n) {
      return new BigDecimal(n.toString());
    }
    return CanonicalRows.text(value);
  }

  @Override
  public int compareTo(SortKey other) {
    for (int i = 0; i < Math.min(values.length, other.values.length); i++) {
      int c = compare(values[i], other.values[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(values.length, other.values.length);
  }

  private static int compare(Object a, Object b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    if (a instanceof Long x && b instanceof Long y) {
      return Long.compare(x, y);
    }
    if (a instanceof Number && b instanceof Number) {
      return toDecimal(a).compareTo(toDecimal(b));
    }
    return a.toString().compareTo(b.toString());
  }

  private static BigDecimal toDecimal(Object n) {
    return n instanceof BigDecimal d ? d : BigDecimal.valueOf(((Number) n).longValue());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SortKey k && compareTo(k) == 0;
  }

  @Override
  public int hashCode() {
    int h = 1;
    for (Object v : values) {
      Object n = v instanceof Long l ? BigDecimal.valueOf(l) : v;
      h =
          31 * h
              + (n instanceof BigDecimal d
                  ? d.stripTrailingZeros().hashCode()
                  : String.valueOf(n).hashCode());
    }
    return h;
  }

  @Override
  public String toString() {
    return Arrays.toString(values);
  }
}
