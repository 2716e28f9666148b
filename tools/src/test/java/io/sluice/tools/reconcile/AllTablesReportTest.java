package io.sluice.tools.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.tools.reconcile.TableOutcome.Status;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class AllTablesReportTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ReconcileResult result(long source, long lake, long diffs, List<String> missing) {
    return new ReconcileResult(
        List.of("order_id", "line_no"),
        List.of("order_id", "line_no"),
        source,
        lake,
        lines(source),
        lines(lake),
        "s".repeat(64),
        diffs == 0 ? "s".repeat(64) : "a".repeat(64),
        missing,
        List.of(),
        diffs);
  }

  private static List<String> lines(long rows) {
    return java.util.stream.LongStream.rangeClosed(1, rows)
        .mapToObj(i -> "{\"order_id\":\"" + i + "\",\"line_no\":\"1\"}")
        .toList();
  }

  private static final List<TableOutcome> OUTCOMES =
      List.of(
          new TableOutcome(
              "cdc_lab.order_items",
              "cdc_lab.order_items_current",
              Status.EQUAL,
              null,
              result(2, 2, 0, List.of())),
          new TableOutcome(
              "cdc_lab.audit_log", null, Status.SKIPPED, "no primary key; changelog-only", null),
          new TableOutcome(
              "cdc_lab.orders",
              "cdc_lab.orders_current",
              Status.DRIFT,
              null,
              result(1, 0, 1, List.of("{\"order_id\":\"1\",\"line_no\":\"1\"}"))));

  @Test
  void reportMatchesTheDocumentedFixture() throws Exception {
    JsonNode expected;
    try (InputStream in = getClass().getResourceAsStream("/reconcile-all-report.json")) {
      expected = JSON.readTree(in);
    }

    assertThat(JSON.readTree(AllTablesReport.json(OUTCOMES))).isEqualTo(expected);
  }

  @Test
  void eachTableObjectIsTheSingleTableReportPlusItsName() throws Exception {
    JsonNode single =
        JSON.readTree(JSON.writeValueAsString(ReconciliationReport.of(OUTCOMES.get(2).result())));
    JsonNode table = JSON.readTree(AllTablesReport.json(OUTCOMES)).get("tables").get(2);

    single.fieldNames().forEachRemaining(k -> assertThat(table.get(k)).isEqualTo(single.get(k)));
    assertThat(table.get("table").asText()).isEqualTo("cdc_lab.orders");
  }

  @Test
  void skippedTablesKeepTheRunConvergedButDriftAndFailuresDoNot() {
    assertThat(AllTablesReport.converged(OUTCOMES.subList(0, 2))).isTrue();
    assertThat(AllTablesReport.converged(OUTCOMES)).isFalse();
    assertThat(
            AllTablesReport.converged(
                List.of(new TableOutcome("a.b", "a.b_current", Status.FAILED, "x", null))))
        .isFalse();
  }
}
