package io.sluice.deployment;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression (as a Grafana panel holds it) reads. Not a PromQL parser: it
 * removes what cannot be a metric name (strings, label matchers, ranges, grouping label lists,
 * offset and @ modifiers, Grafana variables), then every identifier that is not a function call or
 * a keyword is a name.
 */
final class PromQlNames {
  private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'[^']*'");
  private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
  private static final Pattern RANGE = Pattern.compile("\\[[^\\]]*]");
  private static final Pattern GROUPING =
      Pattern.compile("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
  private static final Pattern MODIFIER =
      Pattern.compile("\\boffset\\s+-?\\w+|@\\s*(?:start\\(\\)|end\\(\\)|[\\d.]+)");
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{[^}]*}|\\$\\w+");
  private static final Pattern NUMBER = Pattern.compile("\\b\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?\\b");
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_:][A-Za-z0-9_:]*");
  private static final Set<String> KEYWORDS =
      Set.of(
          "and",
          "or",
          "unless",
          "bool",
          "offset",
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "group_right",
          "inf",
          "nan",
          "atan2");
  private static final Pattern LABEL_VALUES =
      Pattern.compile("^\\s*label_values\\(\\s*(.*?)\\s*,\\s*\\w+\\s*\\)\\s*$", Pattern.DOTALL);
  private static final Pattern QUERY_RESULT =
      Pattern.compile("^\\s*query_result\\((.*)\\)\\s*$", Pattern.DOTALL);

  private PromQlNames() {}

  /** The metric names of a panel target's expression. */
  static Set<String> ofExpression(String expr) {
    String s = STRING.matcher(expr).replaceAll(" ");
    s = MATCHERS.matcher(s).replaceAll(" ");
    s = RANGE.matcher(s).replaceAll(" ");
    s = GROUPING.matcher(s).replaceAll(" ");
    s = VARIABLE.matcher(s).replaceAll(" ");
    s = MODIFIER.matcher(s).replaceAll(" ");
    s = NUMBER.matcher(s).replaceAll(" ");
    Set<String> names = new TreeSet<>();
    Matcher m = IDENTIFIER.matcher(s);
    while (m.find()) {
      String id = m.group();
      if (KEYWORDS.contains(id) || isCall(s, m.end())) {
        continue;
      }
      names.add(id);
    }
    return names;
  }

  /**
   * The metric names of a Grafana Prometheus variable query: {@code label_values(<selector>,
   * label)} or {@code query_result(<expr>)}; anything else is refused so that no query goes
   * unchecked.
   */
  static Set<String> ofVariableQuery(String query) {
    Matcher labelValues = LABEL_VALUES.matcher(query);
    if (labelValues.matches()) {
      return ofExpression(labelValues.group(1));
    }
    Matcher queryResult = QUERY_RESULT.matcher(query);
    if (queryResult.matches()) {
      return ofExpression(queryResult.group(1));
    }
    throw new IllegalArgumentException(
        "unsupported variable query (use label_values or query_result): " + query);
  }

  private static boolean isCall(String s, int end) {
    int i = end;
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
    return i < s.length() && s.charAt(i) == '(';
  }
}
