package io.sluice.lake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Rows of an Iceberg table as Iceberg's own generic reader returns them (equality and position
 * deletes applied), in file order or sorted by {@link RowOrder}, and their rendering as text and
 * JSON.
 *
 * <p>Rendering: timestamps {@code yyyy-MM-dd HH:mm:ss.SSS} (microseconds when there are any),
 * {@code timestamptz} in UTC with a {@code Z}, dates and times ISO-8601, decimals in plain
 * notation, binary as base64, structs as JSON objects.
 */
public final class IcebergRows {
  private static final DateTimeFormatter MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", Locale.ROOT);
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS", Locale.ROOT);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private IcebergRows() {}

  /**
   * Hands every row of the table's current snapshot to {@code rows}, at most {@code limit} of them
   * (0: all). The record is reused by the reader: copy it to keep it.
   *
   * @return how many rows were handed over
   */
  public static long read(Table table, long limit, Consumer<Record> rows) {
    long count = 0;
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        if (limit > 0 && count >= limit) {
          break;
        }
        rows.accept(record);
        count++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read table " + table.name(), e);
    }
    return count;
  }

  /**
   * Hands the rows of the table's current snapshot to {@code rows} in {@link RowOrder} (by the
   * identifier fields), the first {@code limit} of that order (0: all). Every row is read; the rows
   * handed over are held in memory (copies) until the scan ends: at most {@code limit} of them,
   * every row of the table when {@code limit} is 0.
   *
   * @return how many rows the table has (read), of which at most {@code limit} were handed over
   */
  public static long readSorted(Table table, long limit, Consumer<Record> rows) {
    Comparator<Record> order = RowOrder.of(table.schema());
    List<Record> kept = new ArrayList<>();
    long read;
    if (limit > 0) {
      // The limit smallest rows so far, largest on top: bounded memory whatever the table's size.
      PriorityQueue<Record> smallest = new PriorityQueue<>(order.reversed());
      read =
          read(
              table,
              0,
              r -> {
                if (smallest.size() < limit) {
                  smallest.add(r.copy());
                } else if (order.compare(r, smallest.peek()) < 0) {
                  smallest.poll();
                  smallest.add(r.copy());
                }
              });
      kept.addAll(smallest);
    } else {
      read = read(table, 0, r -> kept.add(r.copy()));
    }
    kept.sort(order);
    kept.forEach(rows);
    return read;
  }

  /** Every row of the table's current snapshot, copied. */
  public static List<Record> readAll(Table table) {
    List<Record> rows = new ArrayList<>();
    read(table, 0, r -> rows.add(r.copy()));
    return rows;
  }

  /** Top-level column names, in schema order. */
  public static List<String> columns(Table table) {
    return table.schema().columns().stream().map(Types.NestedField::name).toList();
  }

  /** The row as a JSON object, columns in schema order. */
  public static ObjectNode toJson(Record record) {
    ObjectNode node = NODES.objectNode();
    List<Types.NestedField> fields = record.struct().fields();
    for (int i = 0; i < fields.size(); i++) {
      node.set(fields.get(i).name(), json(record.get(i)));
    }
    return node;
  }

  /** One value as text: null as {@code null}, structs and collections as compact JSON. */
  public static String text(Object value) {
    JsonNode node = json(value);
    return node.isTextual() ? node.asText() : node.toString();
  }

  private static JsonNode json(Object value) {
    if (value == null) {
      return NODES.nullNode();
    } else if (value instanceof Record record) {
      return toJson(record);
    } else if (value instanceof Integer i) {
      return NODES.numberNode(i);
    } else if (value instanceof Long l) {
      return NODES.numberNode(l);
    } else if (value instanceof Float f) {
      return NODES.numberNode(f);
    } else if (value instanceof Double d) {
      return NODES.numberNode(d);
    } else if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    } else if (value instanceof BigDecimal d) {
      return NODES.textNode(d.toPlainString());
    } else if (value instanceof LocalDateTime t) {
      return NODES.textNode(timestamp(t));
    } else if (value instanceof OffsetDateTime t) {
      return NODES.textNode(
          timestamp(t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()) + "Z");
    } else if (value instanceof LocalTime t) {
      return NODES.textNode(t.toString());
    } else if (value instanceof ByteBuffer b) {
      ByteBuffer copy = b.duplicate();
      byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      return NODES.textNode(Base64.getEncoder().encodeToString(bytes));
    } else if (value instanceof byte[] bytes) {
      return NODES.textNode(Base64.getEncoder().encodeToString(bytes));
    } else if (value instanceof List<?> list) {
      ArrayNode array = NODES.arrayNode();
      list.forEach(v -> array.add(json(v)));
      return array;
    } else if (value instanceof Map<?, ?> map) {
      ObjectNode object = NODES.objectNode();
      map.forEach((k, v) -> object.set(String.valueOf(k), json(v)));
      return object;
    }
    return NODES.textNode(value.toString());
  }

  /** {@code yyyy-MM-dd HH:mm:ss.SSS}, or microseconds when the value has any. */
  public static String timestamp(LocalDateTime t) {
    return (t.getNano() % 1_000_000 == 0 ? MILLIS : MICROS).format(t);
  }
}
