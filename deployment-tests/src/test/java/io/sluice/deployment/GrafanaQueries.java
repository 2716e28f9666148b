package io.sluice.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Every Prometheus query of the Grafana dashboards (panel targets and templating variables) with
 * Grafana's variables replaced by what Grafana would send, so Prometheus itself can run them.
 */
final class GrafanaQueries {
  /**
   * Grafana's variable syntaxes: {@code ${name}}, {@code ${name:format}}, {@code [[name]]}, {@code
   * $name}.
   */
  private static final Pattern VARIABLE =
      Pattern.compile("\\$\\{(\\w+)(?::[^}]*)?}|\\[\\[(\\w+)(?::[^\\]]*)?]]|\\$(\\w+)");

  private static final Pattern LABEL_VALUES =
      Pattern.compile(
          "^\\s*label_values\\(\\s*(?:(.*\\S)\\s*,\\s*)?(\\w+)\\s*\\)\\s*$", Pattern.DOTALL);
  private static final Pattern QUERY_RESULT =
      Pattern.compile("^\\s*query_result\\((.*)\\)\\s*$", Pattern.DOTALL);

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A templating variable's query as Prometheus' API answers it: {@code label_values(match, label)}
   * and {@code label_values(label)} through {@code /api/v1/label/<label>/values} (match null for
   * the second), {@code query_result(expr)} as a query (label null).
   */
  record VariableQuery(String label, String match, String expr) {
    static VariableQuery parse(String query) {
      Matcher labels = LABEL_VALUES.matcher(query);
      if (labels.matches()) {
        return new VariableQuery(labels.group(2), labels.group(1), null);
      }
      Matcher result = QUERY_RESULT.matcher(query);
      if (result.matches()) {
        return new VariableQuery(null, null, result.group(1).strip());
      }
      throw new IllegalArgumentException(
          "variable query " + query + " is neither label_values(...) nor query_result(...)");
    }
  }

  /**
   * One query of a dashboard.
   *
   * @param dashboard the file name
   * @param source {@code panel '<title>'} or {@code variable $<name>}
   * @param expr the query as the dashboard holds it
   * @param variable true for a templating variable's query ({@code label_values(...)} etc.)
   */
  record Query(String dashboard, String source, String expr, boolean variable) {
    @Override
    public String toString() {
      return dashboard + " " + source + ": " + expr;
    }
  }

  private final List<Query> queries;
  private final Map<String, String> dashboardVariables;

  private GrafanaQueries(List<Query> queries, Map<String, String> dashboardVariables) {
    this.queries = queries;
    this.dashboardVariables = dashboardVariables;
  }

  /** The queries of every {@code *.json} dashboard in {@code dir}, in file and panel order. */
  static GrafanaQueries load(Path dir) throws IOException {
    List<Query> queries = new ArrayList<>();
    Map<String, String> variables = new LinkedHashMap<>();
    List<Path> files;
    try (Stream<Path> list = Files.list(dir)) {
      files = list.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    }
    for (Path file : files) {
      String name = file.getFileName().toString();
      JsonNode dashboard = JSON.readTree(file.toFile());
      for (JsonNode panel : panels(dashboard.path("panels"), new ArrayList<>())) {
        for (JsonNode target : panel.path("targets")) {
          String expr = target.path("expr").asText("");
          if (!expr.isBlank()) {
            queries.add(
                new Query(name, "panel '" + panel.path("title").asText() + "'", expr, false));
          }
        }
      }
      for (JsonNode variable : dashboard.path("templating").path("list")) {
        String variableName = variable.path("name").asText();
        String type = variable.path("type").asText();
        switch (type) {
          case "datasource" -> {} // picks the datasource; never part of a query
          case "query" -> {
            JsonNode query = variable.path("query");
            String text = query.isObject() ? query.path("query").asText() : query.asText();
            queries.add(new Query(name, "variable $" + variableName, text, true));
            variables.put(variableName, ".*"); // "All", as a regex matcher
          }
          case "custom" -> variables.put(variableName, ".*");
          default ->
              throw new IllegalArgumentException(
                  name
                      + ": variable $"
                      + variableName
                      + " of type "
                      + type
                      + " has no substitute here; teach GrafanaQueries its value");
        }
      }
    }
    return new GrafanaQueries(List.copyOf(queries), variables);
  }

  List<Query> all() {
    return queries;
  }

  /** The queries of one panel, by title. */
  List<Query> panel(String dashboard, String title) {
    return queries.stream()
        .filter(q -> q.dashboard().equals(dashboard) && q.source().equals("panel '" + title + "'"))
        .toList();
  }

  /**
   * {@code expr} with every dashboard variable (as "All": {@code .*}) and Grafana macro replaced.
   *
   * @param scrapeInterval the Prometheus scrape interval: {@code $__rate_interval} becomes
   *     Grafana's max(interval + scrape interval, 4 x scrape interval)
   * @param interval the query step, {@code $__interval}
   * @param range the dashboard's time range, {@code $__range}
   * @throws IllegalArgumentException naming a variable that is neither
   */
  String substitute(String expr, Duration scrapeInterval, Duration interval, Duration range) {
    Map<String, String> values = new LinkedHashMap<>(dashboardVariables);
    Duration rateInterval = interval.plus(scrapeInterval);
    if (rateInterval.compareTo(scrapeInterval.multipliedBy(4)) < 0) {
      rateInterval = scrapeInterval.multipliedBy(4);
    }
    values.put("__rate_interval", promDuration(rateInterval));
    values.put("__interval", promDuration(interval));
    values.put("__interval_ms", String.valueOf(interval.toMillis()));
    // Grafana rounds the range to whole seconds.
    long rangeSeconds = Math.max(1, (range.toMillis() + 999) / 1000);
    values.put("__range", rangeSeconds + "s");
    values.put("__range_s", String.valueOf(rangeSeconds));
    values.put("__range_ms", String.valueOf(rangeSeconds * 1000));
    Matcher m = VARIABLE.matcher(expr);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
      String value = values.get(name);
      if (value == null && name.chars().allMatch(Character::isDigit)) {
        value = m.group(); // a regex back-reference such as label_replace's $1, not a variable
      }
      if (value == null) {
        throw new IllegalArgumentException("unknown Grafana variable $" + name + " in " + expr);
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static String promDuration(Duration d) {
    long millis = d.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
  }

  /** Panels, rows excluded, including those inside collapsed rows. */
  private static List<JsonNode> panels(JsonNode list, List<JsonNode> into) {
    for (JsonNode panel : list) {
      if (panel.path("type").asText().equals("row")) {
        panels(panel.path("panels"), into);
      } else {
        into.add(panel);
      }
    }
    return into;
  }
}
