package io.sluice.tools.reconcile;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.tools.reconcile.TableOutcome.Status;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code sluice reconcile --all --output} writes (version 1, see {@code
 * docs/design.md#reconcile---all-report}): one object per table, each the single-table {@link
 * ReconciliationReport} with {@code table}, {@code iceberg_table}, {@code status} and {@code
 * reason} in front, then the summary.
 */
public final class AllTablesReport {
  public static final int VERSION = 1;
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private AllTablesReport() {}

  /** Tables per status, every status present. */
  public static Map<Status, Integer> counts(List<TableOutcome> outcomes) {
    Map<Status, Integer> counts = new EnumMap<>(Status.class);
    for (Status s : Status.values()) {
      counts.put(s, 0);
    }
    outcomes.forEach(o -> counts.merge(o.status(), 1, Integer::sum));
    return counts;
  }

  /** Whether every table is equal or skipped: the run's exit code 0. */
  public static boolean converged(List<TableOutcome> outcomes) {
    return outcomes.stream().allMatch(o -> o.status().ok());
  }

  /** The report as indented JSON. */
  public static String json(List<TableOutcome> outcomes) {
    ObjectNode root = JSON.createObjectNode();
    root.put("report_version", VERSION);
    ArrayNode tables = root.putArray("tables");
    for (TableOutcome o : outcomes) {
      ObjectNode table = tables.addObject();
      table.put("table", o.table());
      table.put("iceberg_table", o.icebergTable());
      table.put("status", name(o.status()));
      table.put("reason", o.reason());
      if (o.result() != null) {
        table.setAll((ObjectNode) JSON.valueToTree(ReconciliationReport.of(o.result())));
      }
    }
    ObjectNode summary = root.putObject("summary");
    summary.put("tables", outcomes.size());
    counts(outcomes).forEach((status, n) -> summary.put(name(status), n));
    summary.put("converged", converged(outcomes));
    try {
      return JSON.writeValueAsString(root);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write the reconcile report", e);
    }
  }

  static String name(Status status) {
    return status.name().toLowerCase(Locale.ROOT);
  }
}
