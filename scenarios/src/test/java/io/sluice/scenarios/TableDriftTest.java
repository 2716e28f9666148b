package io.sluice.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.scenarios.poison.PoisonCheck;
import io.sluice.tools.reconcile.ReconcileResult;
import io.sluice.tools.reconcile.TableOutcome;
import io.sluice.tools.reconcile.TableOutcome.Status;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableDriftTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String C1 = "{\"customer_id\":\"1\",\"name\":\"a\"}";
  private static final String C2 = "{\"customer_id\":\"2\",\"name\":\"b\"}";
  private static final String C3 = "{\"customer_id\":\"3\",\"name\":\"c\"}";

  /** customers as a baseline that lost three rows sees it: 24 in the source, 21 in the lake. */
  private static final ReconcileResult CUSTOMERS_LOST_THREE =
      new ReconcileResult(
          List.of("customer_id", "name"),
          List.of("customer_id"),
          24,
          21,
          List.of(),
          List.of(),
          "aa",
          "bb",
          List.of(C1, C2, C3),
          List.of(),
          3);

  private static final ReconcileResult EQUAL =
      new ReconcileResult(
          List.of("order_id"),
          List.of("order_id"),
          2,
          2,
          List.of(),
          List.of(),
          "cc",
          "cc",
          List.of(),
          List.of(),
          0);

  private static final List<TableOutcome> BASELINE =
      List.of(
          new TableOutcome("cdc_lab.orders", "cdc_lab.orders_current", Status.EQUAL, null, EQUAL),
          new TableOutcome(
              "cdc_lab.customers",
              "cdc_lab.customers_current",
              Status.DRIFT,
              null,
              CUSTOMERS_LOST_THREE),
          new TableOutcome(
              "cdc_lab.audit_log", null, Status.SKIPPED, "no primary key; changelog-only", null),
          new TableOutcome(
              "cdc_lab.order_items",
              "cdc_lab.order_items_current",
              Status.FAILED,
              "Iceberg table cdc_lab.order_items_current has no primary-key column item_id",
              null));

  @Test
  void onlyTablesThatAreNeitherEqualNorSkippedDrift() {
    List<TableDrift> drift = TableDrift.drifting(BASELINE, 10);

    assertThat(drift)
        .extracting(TableDrift::table)
        .containsExactly("cdc_lab.customers", "cdc_lab.order_items");
    TableDrift customers = drift.get(0);
    assertThat(customers.status()).isEqualTo("drift");
    assertThat(customers.mysqlRowCount()).isEqualTo(24);
    assertThat(customers.icebergRowCount()).isEqualTo(21);
    assertThat(customers.snapshotDiffCount()).isEqualTo(3);
    assertThat(customers.missingFromActual()).containsExactly(C1, C2, C3);
    assertThat(customers.unexpectedInActual()).isEmpty();
    assertThat(customers.snapshotDiffTruncated()).isFalse();
    TableDrift failed = drift.get(1);
    assertThat(failed.status()).isEqualTo("failed");
    assertThat(failed.reason()).contains("no primary-key column item_id");
    assertThat(failed.snapshotDiffCount()).isNull();
    assertThat(failed.missingFromActual()).isEmpty();
  }

  @Test
  void theReportRowsBoundCutsTheListsAndSaysSo() {
    TableDrift two = TableDrift.of(BASELINE.get(1), 2);
    TableDrift none = TableDrift.of(BASELINE.get(1), 0);

    assertThat(two.missingFromActual()).containsExactly(C1, C2);
    assertThat(two.snapshotDiffTruncated()).isTrue();
    assertThat(none.missingFromActual()).isEmpty();
    assertThat(none.snapshotDiffCount()).isEqualTo(3);
    assertThat(none.snapshotDiffTruncated()).isTrue();
  }

  @Test
  void aBaselineThatTimesOutPutsTheDifferingRowsInTheReport() throws IOException {
    List<String> progress = new ArrayList<>();
    StepChain<Object, Object> end =
        StepChain.<Object, Object>start("schema-change", progress::add, "plan")
            .then(
                "baseline",
                "seeding 100 rows of seed 9",
                plan -> {
                  throw new ScenarioFailure(
                      "not every source table reached the lake within 120 s: cdc_lab.customers"
                          + " drift",
                      TableDrift.drifting(BASELINE, 2));
                })
            .complete();
    Findings findings =
        Findings.builder(PoisonCheck.class)
            .build(end.phase(), end.failure().orElseThrow(), false, false);

    JsonNode report =
        JSON.readTree(
            new VerifyReport(VerifyReportTest.header(), findings, VerifyReportTest.finished())
                .toJson());

    assertThat(report.path("summary").path("failed_phase").asText()).isEqualTo("baseline");
    JsonNode baseline = report.path("table_drift").path("baseline");
    assertThat(baseline).hasSize(2);
    JsonNode customers = baseline.path(0);
    List<String> keys = new ArrayList<>();
    customers.fieldNames().forEachRemaining(keys::add);
    assertThat(keys)
        .containsExactly(
            "table",
            "iceberg_table",
            "status",
            "reason",
            "mysql_row_count",
            "iceberg_row_count",
            "snapshot_diff_count",
            "missing_from_actual",
            "unexpected_in_actual",
            "snapshot_diff_truncated");
    assertThat(customers.path("table").asText()).isEqualTo("cdc_lab.customers");
    assertThat(customers.path("iceberg_table").asText()).isEqualTo("cdc_lab.customers_current");
    assertThat(customers.path("snapshot_diff_count").asLong()).isEqualTo(3);
    assertThat(customers.path("missing_from_actual").path(0).asText()).isEqualTo(C1);
    assertThat(customers.path("missing_from_actual")).hasSize(2);
    assertThat(customers.path("snapshot_diff_truncated").asBoolean()).isTrue();
    assertThat(baseline.path(1).path("status").asText()).isEqualTo("failed");
  }

  @Test
  void aWaitThatTimesOutCarriesTheDriftOfTheLastReconciliation() {
    assertThatThrownBy(
            () ->
                BoundedWait.until(
                    "the current table equals the source after the baseline",
                    Duration.ZERO,
                    () -> CUSTOMERS_LOST_THREE,
                    ReconcileResult::converged,
                    r ->
                        List.of(
                            TableDrift.of(
                                "cdc_lab.customers", "cdc_lab.customers_current", r, 10))))
        .isInstanceOf(ScenarioFailure.class)
        .hasMessageStartingWith(
            "timed out after 0 s waiting until the current table equals the source after the"
                + " baseline; last seen: ")
        .satisfies(
            e ->
                assertThat(((ScenarioFailure) e).drift())
                    .singleElement()
                    .satisfies(
                        d -> {
                          assertThat(d.table()).isEqualTo("cdc_lab.customers");
                          assertThat(d.missingFromActual()).containsExactly(C1, C2, C3);
                        }));
  }

  @Test
  void aWaitWhoseProbeNeverAnsweredCarriesNoDrift() {
    assertThatThrownBy(
            () ->
                BoundedWait.until(
                    "the current table equals the source",
                    Duration.ZERO,
                    () -> {
                      throw new IllegalStateException("no table cdc_lab.orders_current");
                    },
                    r -> true,
                    r ->
                        List.of(
                            TableDrift.of("cdc_lab.orders", "cdc_lab.orders_current", EQUAL, 1))))
        .isInstanceOf(ScenarioFailure.class)
        .hasMessageContaining("last seen: java.lang.IllegalStateException: no table")
        .satisfies(e -> assertThat(((ScenarioFailure) e).drift()).isEmpty());
  }

  @Test
  void eachPhaseKeepsItsOwnDriftInTheOrderTheRunReachedThem() {
    TableDrift orders =
        TableDrift.of("cdc_lab.orders", "cdc_lab.orders_current", CUSTOMERS_LOST_THREE, 10);
    TableDrift customers = TableDrift.of(BASELINE.get(1), 10);
    Findings findings =
        Findings.builder(PoisonCheck.class)
            .drift("baseline", List.of())
            .drift("repair", List.of(orders))
            .build(
                StepChain.FINAL,
                new StepChain.Failure(StepChain.FINAL, "timed out", List.of(customers)),
                false,
                false);

    assertThat(findings.tableDrift().keySet()).containsExactly("repair", StepChain.FINAL);
    assertThat(findings.tableDrift().get("repair")).containsExactly(orders);
    assertThat(findings.tableDrift().get(StepChain.FINAL)).containsExactly(customers);
  }
}
