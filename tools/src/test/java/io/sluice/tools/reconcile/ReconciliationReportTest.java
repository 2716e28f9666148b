package io.sluice.tools.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import io.sluice.dlq.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReconciliationReportTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper INDENTED =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final List<String> COLUMNS = List.of("order_id", "status", "updated_at");

  private static KeyedLine order(long id, String status, int second) {
    return new KeyedLine(
        SortKey.of(id),
        CanonicalRows.line(
            COLUMNS,
            new Object[] {id, status, LocalDateTime.of(2026, 3, 1, 10, 15, second, 5_000_000)}));
  }

  // Source: orders 1..3; lake: 1 and 2, order 2 without a status. Two rows listed per side.
  private static final List<KeyedLine> SOURCE =
      List.of(order(1, "NEW", 1), order(2, "PAID", 2), order(3, "NEW", 3));
  private static final List<KeyedLine> LAKE = List.of(order(1, "NEW", 1), order(2, null, 2));

  private static ReconcileResult reconcile(int rowLimit, List<KeyedLine> source) {
    return new SortedDiff(10, rowLimit, n -> {})
        .diff(COLUMNS, List.of("order_id"), source.iterator(), LAKE.iterator());
  }

  @Test
  void isWrittenExactlyAsTheFixtureAndReadsBackEqual() throws IOException {
    ReconciliationReport report = ReconciliationReport.of(reconcile(2, SOURCE));

    assertThat(INDENTED.writeValueAsString(report)).isEqualToIgnoringNewLines(fixture());
    assertThat(JSON.readValue(fixture(), ReconciliationReport.class)).isEqualTo(report);
  }

  @Test
  void hasTheKeysAndJsonTypesOfTheReferenceReport() throws IOException {
    JsonNode json = JSON.readTree(fixture());

    assertThat(fieldNames(json))
        .containsExactly(
            "mysql_rows",
            "iceberg_rows",
            "mysql_row_count",
            "iceberg_row_count",
            "mysql_rows_truncated",
            "iceberg_rows_truncated",
            "source_snapshot_row_count",
            "iceberg_snapshot_row_count",
            "source_snapshot_sha256",
            "iceberg_snapshot_sha256",
            "snapshot_diff",
            "snapshot_diff_count");
    assertThat(types(json))
        .containsExactly(
            JsonNodeType.ARRAY,
            JsonNodeType.ARRAY,
            JsonNodeType.NUMBER,
            JsonNodeType.NUMBER,
            JsonNodeType.BOOLEAN,
            JsonNodeType.BOOLEAN,
            JsonNodeType.NUMBER,
            JsonNodeType.NUMBER,
            JsonNodeType.STRING,
            JsonNodeType.STRING,
            JsonNodeType.OBJECT,
            JsonNodeType.NUMBER);
    assertThat(json.get("mysql_row_count").isIntegralNumber()).isTrue();
    for (String side : List.of("mysql_rows", "iceberg_rows")) {
      for (JsonNode row : json.get(side)) {
        assertThat(fieldNames(row)).as(side).containsExactlyElementsOf(COLUMNS);
        row.forEach(v -> assertThat(v.isTextual() || v.isNull()).as(side + " " + row).isTrue());
      }
    }
    assertThat(json.get("iceberg_rows").get(1).get("status").isNull()).isTrue();
    assertThat(json.get("mysql_rows").get(0).get("updated_at").asText())
        .isEqualTo("2026-03-01 10:15:01.005");
  }

  @Test
  void truncatedOnlyWhenTheListHoldsFewerRowsThanTheCount() {
    ReconciliationReport limited = ReconciliationReport.of(reconcile(2, SOURCE));
    assertThat(limited.mysqlRows()).hasSize(2);
    assertThat(limited.mysqlRowCount()).isEqualTo(3);
    assertThat(limited.mysqlRowsTruncated()).isTrue();
    assertThat(limited.icebergRows()).hasSize(2);
    assertThat(limited.icebergRowsTruncated()).isFalse();

    ReconciliationReport all = ReconciliationReport.of(reconcile(3, SOURCE));
    assertThat(all.mysqlRows()).hasSize(3);
    assertThat(all.mysqlRowsTruncated()).isFalse();
    assertThat(all.mysqlRows().get(2)).containsEntry("order_id", "3");
  }

  @Test
  void aRowLimitOfZeroListsNoRowsButKeepsTheCounts() throws IOException {
    JsonNode json = JSON.valueToTree(ReconciliationReport.of(reconcile(0, SOURCE)));

    assertThat(json.get("mysql_rows").isArray()).isTrue();
    assertThat(json.get("mysql_rows")).isEmpty();
    assertThat(json.get("iceberg_rows")).isEmpty();
    assertThat(json.get("mysql_row_count").asLong()).isEqualTo(3);
    assertThat(json.get("iceberg_row_count").asLong()).isEqualTo(2);
    assertThat(json.get("mysql_rows_truncated").asBoolean()).isTrue();
    assertThat(json.get("iceberg_rows_truncated").asBoolean()).isTrue();

    JsonNode empty = JSON.valueToTree(ReconciliationReport.of(reconcile(0, List.of())));
    assertThat(empty.get("mysql_row_count").asLong()).isZero();
    assertThat(empty.get("mysql_rows_truncated").asBoolean()).isFalse();
  }

  @Test
  void theRowObjectsAreTheCanonicalLinesTheSha256IsComputedOver() throws IOException {
    ReconcileResult result = reconcile(10, SOURCE);
    ReconciliationReport report = ReconciliationReport.of(result);

    assertSameLines(report.mysqlRows(), SOURCE, result.sourceSha256());
    assertSameLines(report.icebergRows(), LAKE, result.actualSha256());
  }

  private static void assertSameLines(
      List<Map<String, String>> rows, List<KeyedLine> lines, String sha256) throws IOException {
    MessageDigest digest = Sha256.digest();
    List<String> written = new ArrayList<>();
    for (Map<String, String> row : rows) {
      // The same string, whether written as the report writes it or as the reconciler hashes it.
      String line = JSON.writeValueAsString(row);
      assertThat(CanonicalRows.line(COLUMNS, row.values().toArray())).isEqualTo(line);
      written.add(line);
      digest.update((line + "\n").getBytes(StandardCharsets.UTF_8));
    }
    assertThat(written).containsExactlyElementsOf(lines.stream().map(KeyedLine::line).toList());
    assertThat(Sha256.hex(digest)).isEqualTo(sha256);
  }

  @Test
  void aLineThatIsNotACanonicalRowIsRefusedWithoutEchoingIt() {
    assertThatThrownBy(() -> CanonicalRows.row("{\"order_id\":7}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a canonical row line (14 chars): a JSON object of strings");
    Map<String, String> row = new LinkedHashMap<>();
    row.put("a", "1");
    row.put("b", null);
    assertThat(CanonicalRows.row("{\"a\":\"1\",\"b\":null}")).isEqualTo(row);
  }

  private static String fixture() throws IOException {
    try (InputStream in =
        ReconciliationReportTest.class.getResourceAsStream("/reconciliation-report.json")) {
      assertThat(in).as("fixture reconciliation-report.json").isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static List<JsonNodeType> types(JsonNode node) {
    List<JsonNodeType> types = new ArrayList<>();
    node.forEach(v -> types.add(v.getNodeType()));
    return types;
  }
}
