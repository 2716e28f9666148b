package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GrafanaQueriesTest {
  private static final Duration SECOND = Duration.ofSeconds(1);

  @TempDir Path dir;

  @Test
  void loadsPanelTargetsInsideRowsAndVariableQueries() throws Exception {
    GrafanaQueries queries = load();

    assertThat(queries.all())
        .extracting(GrafanaQueries.Query::toString)
        .containsExactly(
            "d.json panel 'Rate': rate(a_total{topic=~\"$topic\"}[$__rate_interval])",
            "d.json panel 'Nested': sum(increase(b_total{topic=~\"${topic:regex}\"}[$__range]))",
            "d.json variable $topic: label_values(a_total, topic)");
    assertThat(queries.all().get(2).variable()).isTrue();
    assertThat(queries.panel("d.json", "Nested")).hasSize(1);
  }

  @Test
  void variablesBecomeAllAndMacrosBecomeDurations() throws Exception {
    GrafanaQueries queries = load();

    assertThat(
            queries.substitute(
                "rate(a{t=~\"$topic\",u=~\"${topic}\",v=~\"[[topic]]\"}[$__rate_interval])"
                    + " / $__interval_ms + increase(a[$__range]) + $__range_s",
                SECOND,
                SECOND,
                Duration.ofMillis(90_200)))
        .isEqualTo("rate(a{t=~\".*\",u=~\".*\",v=~\".*\"}[4s]) / 1000 + increase(a[91s]) + 91");
    // $__rate_interval is max($__interval + scrape interval, 4 x scrape interval), as in Grafana.
    assertThat(
            queries.substitute(
                "rate(a[$__rate_interval]) [$__interval]",
                Duration.ofMillis(500),
                Duration.ofSeconds(5),
                SECOND))
        .isEqualTo("rate(a[5500ms]) [5s]");
  }

  @Test
  void regexBackReferencesStayAndUnknownVariablesFail() throws Exception {
    GrafanaQueries queries = load();

    assertThat(
            queries.substitute(
                "label_replace(a, \"x\", \"$1\", \"y\", \"(.*)\")", SECOND, SECOND, SECOND))
        .isEqualTo("label_replace(a, \"x\", \"$1\", \"y\", \"(.*)\")");
    assertThatThrownBy(() -> queries.substitute("a{x=\"$cluster\"}", SECOND, SECOND, SECOND))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown Grafana variable $cluster in a{x=\"$cluster\"}");
  }

  @Test
  void variableQueriesAreLabelValuesOrQueryResults() {
    assertThat(GrafanaQueries.VariableQuery.parse("label_values(a_total{x=~\"a,b\"}, topic)"))
        .isEqualTo(new GrafanaQueries.VariableQuery("topic", "a_total{x=~\"a,b\"}", null));
    assertThat(GrafanaQueries.VariableQuery.parse(" label_values( topic ) "))
        .isEqualTo(new GrafanaQueries.VariableQuery("topic", null, null));
    assertThat(GrafanaQueries.VariableQuery.parse("query_result(topk(3, a_total))"))
        .isEqualTo(new GrafanaQueries.VariableQuery(null, null, "topk(3, a_total)"));
    assertThatThrownBy(() -> GrafanaQueries.VariableQuery.parse("metrics(sluice_.*)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "variable query metrics(sluice_.*) is neither label_values(...) nor query_result(...)");
  }

  @Test
  void aVariableTypeWithoutASubstituteIsNamed() throws Exception {
    Files.writeString(
        dir.resolve("i.json"),
        "{\"panels\": [], \"templating\": {\"list\": [{\"name\": \"window\", \"type\":"
            + " \"interval\"}]}}");

    assertThatThrownBy(() -> GrafanaQueries.load(dir))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "i.json: variable $window of type interval has no substitute here; teach"
                + " GrafanaQueries its value");
  }

  private GrafanaQueries load() throws Exception {
    Files.writeString(
        dir.resolve("d.json"),
        """
        {"panels": [
          {"type": "timeseries", "title": "Rate",
           "targets": [{"expr": "rate(a_total{topic=~\\"$topic\\"}[$__rate_interval])"}]},
          {"type": "row", "title": "More", "panels": [
            {"type": "stat", "title": "Nested",
             "targets": [{"expr": "sum(increase(b_total{topic=~\\"${topic:regex}\\"}[$__range]))"},
                         {"expr": ""}]}]}],
         "templating": {"list": [
           {"name": "datasource", "type": "datasource", "query": "prometheus"},
           {"name": "topic", "type": "query",
            "query": {"query": "label_values(a_total, topic)", "refId": "topic"}}]}}
        """);
    Files.writeString(dir.resolve("notes.txt"), "not a dashboard");
    return GrafanaQueries.load(dir);
  }
}
