package io.sluice.tools.monitor;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The samples of a Prometheus text scrape, found by name and labels. */
record Scrape(List<Sample> samples) {
  private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  record Sample(String name, Map<String, String> labels, double value) {}

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** GETs {@code metricsUrl}, which must answer 200, and parses the body. */
  static Scrape fetch(String metricsUrl) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(metricsUrl)).build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException(metricsUrl + " answered " + response.statusCode());
    }
    return of(response.body());
  }

  static Scrape of(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int space = line.lastIndexOf(' ');
      String series = line.substring(0, space);
      double value = Double.parseDouble(line.substring(space + 1));
      int brace = series.indexOf('{');
      Map<String, String> labels = new LinkedHashMap<>();
      if (brace >= 0) {
        Matcher m = LABEL.matcher(series.substring(brace));
        while (m.find()) {
          labels.put(m.group(1), m.group(2));
        }
      }
      samples.add(new Sample(brace >= 0 ? series.substring(0, brace) : series, labels, value));
    }
    return new Scrape(samples);
  }

  /** The value of the one sample named {@code name} whose labels include {@code labels}. */
  OptionalDouble value(String name, Map<String, String> labels) {
    List<Sample> found = new ArrayList<>();
    for (Sample sample : samples) {
      if (sample.name().equals(name) && sample.labels().entrySet().containsAll(labels.entrySet())) {
        found.add(sample);
      }
    }
    if (found.size() > 1) {
      throw new IllegalStateException(name + labels + " matches " + found.size() + " samples");
    }
    return found.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(found.get(0).value());
  }

  /** The sum of the samples named {@code name} whose labels include {@code labels}; 0 for none. */
  double sum(String name, Map<String, String> labels) {
    return samples.stream()
        .filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
        .mapToDouble(Sample::value)
        .sum();
  }

  /** True when some sample named {@code name} has a label {@code label} with {@code value}. */
  boolean hasLabel(String name, String label, String value) {
    return samples.stream()
        .anyMatch(s -> s.name().equals(name) && value.equals(s.labels().get(label)));
  }
}
