package io.sluice.observe.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.common.config.ConfigDef;

/**
 * One generated configuration table in a Markdown document: the {@link ConfigDocs#markdownTable} of
 * {@code def}, between the comments {@code <!-- name:start -->} and {@code <!-- name:end -->}.
 *
 * @param name the marker name, e.g. {@code router-config}
 * @param title what the table documents, for messages (e.g. "router configuration")
 * @param def the keys
 */
public record ConfigTable(String name, String title, ConfigDef def) {

  public String startMarker() {
    return "<!-- " + name + ":start -->";
  }

  public String endMarker() {
    return "<!-- " + name + ":end -->";
  }

  /** The table as generated from {@link #def}. */
  public String markdown() {
    return ConfigDocs.markdownTable(def);
  }

  /**
   * {@code document} with the text between the markers replaced by the generated table.
   *
   * @throws IllegalArgumentException when a marker is missing or they are out of order
   */
  public String regenerate(String document) {
    int start = markerStart(document);
    return document.substring(0, start + startMarker().length())
        + "\n"
        + markdown()
        + document.substring(document.indexOf(endMarker()));
  }

  /** The text now between the markers of {@code document}, as {@link #regenerate} writes it. */
  public String currentIn(String document) {
    int start = markerStart(document);
    return document.substring(start + startMarker().length(), document.indexOf(endMarker()));
  }

  /** Whether the text between the markers is the generated table. */
  public boolean isCurrentIn(String document) {
    return currentIn(document).equals(currentIn(regenerate(document)));
  }

  /**
   * The nearest {@code fileName} at or above {@code dir} that holds this table's start marker:
   * tests run in a module directory, IDEs at the root.
   *
   * @throws IllegalStateException when there is none
   */
  public Path findDocument(Path dir, String fileName) {
    for (Path at = dir.toAbsolutePath(); at != null; at = at.getParent()) {
      Path candidate = at.resolve(fileName);
      if (Files.isRegularFile(candidate) && read(candidate).contains(startMarker())) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "no " + fileName + " with " + startMarker() + " at or above " + dir.toAbsolutePath());
  }

  private int markerStart(String document) {
    int start = document.indexOf(startMarker());
    int end = document.indexOf(endMarker());
    if (start < 0 || end < 0 || end < start) {
      throw new IllegalArgumentException(
          "the document has no '"
              + startMarker()
              + "' ... '"
              + endMarker()
              + "' block for the "
              + title
              + " table");
    }
    return start;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
