package io.sluice.tools.reconcile;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The canonical form of a row that both sides of a reconciliation are reduced to: one JSON object
 * per line, columns in the given order, every value a string (null stays null), timestamps as
 * {@code yyyy-MM-dd HH:mm:ss.SSS} (UTC for zoned values), decimals in plain notation. Two stores
 * hold the same rows exactly when their sorted canonical lines are equal, so the sha256 over the
 * lines is comparable across MariaDB, MySQL and Iceberg.
 */
public final class CanonicalRows {
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
  private static final JsonFactory JSON = new JsonFactory();

  private CanonicalRows() {}

  /** The canonical JSON line (without a newline) of {@code values} named by {@code columns}. */
  public static String line(List<String> columns, Object[] values) {
    StringWriter out = new StringWriter(64 + 16 * columns.size());
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeStartObject();
      for (int i = 0; i < columns.size(); i++) {
        json.writeFieldName(columns.get(i));
        String value = text(values[i]);
        if (value == null) {
          json.writeNull();
        } else {
          json.writeString(value);
        }
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /**
   * The row a canonical {@code line} holds, column to canonical text (null for null), in the line's
   * column order: {@link #line} of its values gives {@code line} back.
   *
   * @throws IllegalArgumentException when {@code line} is not a canonical line
   */
  public static Map<String, String> row(String line) {
    Map<String, String> row = new LinkedHashMap<>();
    try (JsonParser json = JSON.createParser(line)) {
      expect(json.nextToken() == JsonToken.START_OBJECT, line);
      for (JsonToken t = json.nextToken(); t != JsonToken.END_OBJECT; t = json.nextToken()) {
        expect(t == JsonToken.FIELD_NAME, line);
        String column = json.currentName();
        JsonToken value = json.nextToken();
        expect(value == JsonToken.VALUE_STRING || value == JsonToken.VALUE_NULL, line);
        row.put(column, value == JsonToken.VALUE_NULL ? null : json.getText());
      }
      expect(json.nextToken() == null, line);
    } catch (IOException e) {
      throw new IllegalArgumentException("not a canonical row line: " + e.getMessage(), e);
    }
    return row;
  }

  private static void expect(boolean canonical, String line) {
    if (!canonical) {
      // The line is source data: name its length, not its text.
      throw new IllegalArgumentException(
          "not a canonical row line (" + line.length() + " chars): a JSON object of strings");
    }
  }

  /** The canonical text of one value; null for SQL/Iceberg null. */
  public static String text(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof LocalDateTime t) {
      return TIMESTAMP.format(t);
    }
    if (value instanceof Timestamp t) {
      return TIMESTAMP.format(t.toLocalDateTime());
    }
    if (value instanceof OffsetDateTime t) {
      return TIMESTAMP.format(t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());
    }
    if (value instanceof Instant t) {
      return TIMESTAMP.format(LocalDateTime.ofInstant(t, ZoneOffset.UTC));
    }
    if (value instanceof LocalDate d) {
      return d.toString();
    }
    if (value instanceof java.sql.Date d) {
      return d.toLocalDate().toString();
    }
    if (value instanceof LocalTime t) {
      return TIME.format(t);
    }
    if (value instanceof java.sql.Time t) {
      return TIME.format(t.toLocalTime());
    }
    if (value instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (value instanceof byte[] bytes) {
      return HexFormat.of().formatHex(bytes);
    }
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer copy = buffer.duplicate();
      byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      return HexFormat.of().formatHex(bytes);
    }
    if (value instanceof Boolean b) {
      return b ? "1" : "0";
    }
    return value.toString();
  }
}
