package io.sluice.tools.cli;

/** How a listing command prints: aligned columns for people, or one JSON object per line. */
public enum OutputFormat {
  // Lower case: picocli shows and matches the constant names as they are written here.
  table,
  jsonl
}
