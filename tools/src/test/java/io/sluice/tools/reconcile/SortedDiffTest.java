package io.sluice.tools.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dlq.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SortedDiffTest {
  private static final List<String> COLUMNS = List.of("id", "v");

  private static KeyedLine row(long id, String v) {
    return new KeyedLine(SortKey.of(id), CanonicalRows.line(COLUMNS, new Object[] {id, v}));
  }

  private static ReconcileResult diff(List<KeyedLine> source, List<KeyedLine> actual) {
    return new SortedDiff(10, 10, n -> {})
        .diff(COLUMNS, List.of("id"), source.iterator(), actual.iterator());
  }

  @Test
  void equalTablesHaveEqualHashesAndNoDiff() {
    ReconcileResult r = diff(List.of(row(1, "a"), row(2, "b")), List.of(row(1, "a"), row(2, "b")));

    assertThat(r.converged()).isTrue();
    assertThat(r.sourceSha256()).isEqualTo(r.actualSha256()).hasSize(64);
    assertThat(r.sourceRows()).isEqualTo(2);
  }

  @Test
  void missingChangedExtraAndDuplicateRowsAreAllListed() {
    ReconcileResult r =
        diff(
            List.of(row(1, "a"), row(2, "b"), row(3, "c")),
            List.of(row(1, "a"), row(2, "B"), row(2, "B"), row(4, "d")));

    assertThat(r.missingFromActual())
        .containsExactly("{\"id\":\"2\",\"v\":\"b\"}", "{\"id\":\"3\",\"v\":\"c\"}");
    assertThat(r.unexpectedInActual())
        .containsExactly(
            "{\"id\":\"2\",\"v\":\"B\"}",
            "{\"id\":\"2\",\"v\":\"B\"}",
            "{\"id\":\"4\",\"v\":\"d\"}");
    assertThat(r.diffCount()).isEqualTo(5);
    assertThat(r.converged()).isFalse();
    assertThat(r.actualRows()).isEqualTo(4);
  }

  @Test
  void compositeKeysDifferingOnlyInTheSecondColumnDoNotCollide() {
    List<String> columns = List.of("order_id", "line_no", "sku");
    List<String> key = List.of("order_id", "line_no");
    java.util.function.BiFunction<Long, Long, KeyedLine> item =
        (order, line) ->
            new KeyedLine(
                SortKey.of(order, line),
                CanonicalRows.line(columns, new Object[] {order, line, "sku-" + line}));
    // Source holds lines 1 and 2 of order 7; the lake holds lines 1 and 3 of the same order.
    ReconcileResult r =
        new SortedDiff(10, 10, n -> {})
            .diff(
                columns,
                key,
                List.of(item.apply(7L, 1L), item.apply(7L, 2L), item.apply(8L, 1L)).iterator(),
                List.of(item.apply(7L, 1L), item.apply(7L, 3L), item.apply(8L, 1L)).iterator());

    assertThat(r.diffCount()).isEqualTo(2);
    assertThat(r.missingFromActual())
        .containsExactly("{\"order_id\":\"7\",\"line_no\":\"2\",\"sku\":\"sku-2\"}");
    assertThat(r.unexpectedInActual())
        .containsExactly("{\"order_id\":\"7\",\"line_no\":\"3\",\"sku\":\"sku-3\"}");
    assertThat(r.primaryKey()).containsExactly("order_id", "line_no");
  }

  @Test
  void listsAreCappedButTheCountIsNot() {
    List<KeyedLine> source = new java.util.ArrayList<>();
    for (long i = 0; i < 50; i++) {
      source.add(row(i, "x"));
    }
    ReconcileResult r = diff(source, List.of());

    assertThat(r.missingFromActual()).hasSize(10);
    assertThat(r.diffCount()).isEqualTo(50);
  }

  @Test
  void eachSideKeepsItsFirstLinesInKeyOrderUpToTheRowLimitAndCountsTheRest() {
    List<KeyedLine> source = new ArrayList<>();
    for (long i = 0; i < 50; i++) {
      source.add(row(i, "x"));
    }
    ReconcileResult r =
        new SortedDiff(10, 3, n -> {})
            .diff(COLUMNS, List.of("id"), source.iterator(), List.of(row(7, "y")).iterator());

    assertThat(r.sourceLines())
        .containsExactly(
            "{\"id\":\"0\",\"v\":\"x\"}",
            "{\"id\":\"1\",\"v\":\"x\"}",
            "{\"id\":\"2\",\"v\":\"x\"}");
    assertThat(r.sourceRows()).isEqualTo(50);
    assertThat(r.actualLines()).containsExactly("{\"id\":\"7\",\"v\":\"y\"}");
    assertThat(r.actualRows()).isEqualTo(1);
  }

  @Test
  void aRowLimitOfZeroKeepsNoLinesButCountsAndHashesEveryRow() {
    List<KeyedLine> rows = List.of(row(1, "a"), row(2, null));
    ReconcileResult r =
        new SortedDiff(10, 0, n -> {})
            .diff(COLUMNS, List.of("id"), rows.iterator(), rows.iterator());

    assertThat(r.sourceLines()).isEmpty();
    assertThat(r.actualLines()).isEmpty();
    assertThat(r.sourceRows()).isEqualTo(2);
    assertThat(r.sourceSha256()).isEqualTo(sha256OfLines(List.of(rows.get(0), rows.get(1))));
  }

  @Test
  void theKeptLinesAreTheLinesTheSha256IsComputedOver() {
    List<KeyedLine> rows = List.of(row(1, "a"), row(2, null), row(3, "c \"quoted\""));
    ReconcileResult r = diff(rows, rows);

    assertThat(r.sourceLines())
        .containsExactlyElementsOf(rows.stream().map(KeyedLine::line).toList());
    assertThat(r.sourceSha256()).isEqualTo(sha256OfLines(rows));
  }

  private static String sha256OfLines(List<KeyedLine> rows) {
    MessageDigest digest = Sha256.digest();
    rows.forEach(row -> digest.update((row.line() + "\n").getBytes(StandardCharsets.UTF_8)));
    return Sha256.hex(digest);
  }
}
