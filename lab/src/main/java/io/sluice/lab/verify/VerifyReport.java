package io.sluice.lab.verify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The verification report of {@code sluice verify} (version {@value #VERSION}): one JSON object
 * whose top-level keys are those of docs/design.md#verification-report, in that order. This class
 * owns the format: a section is set by its key, unknown keys are refused, unset sections are
 * written as null, and the named checks are always all present (false until a step proves them).
 */
public final class VerifyReport {
  public static final int VERSION = 1;

  /** Every top-level key, in the order they are written. */
  public static final List<String> KEYS =
      List.of(
          "report_version",
          "run_id",
          "started_at",
          "finished_at",
          "command",
          "git_sha",
          "phase",
          "failure_class",
          "scenario",
          "environment",
          "stack_versions",
          "claim_boundary",
          "path_b_job_class",
          "reader",
          "baseline_offset_checkpoint_snapshot_linkage",
          "repair_offset_checkpoint_snapshot_linkage",
          "offset_checkpoint_snapshot_linkage",
          "fault",
          "quarantine",
          "recovery",
          "reconciliation",
          "snapshot_diff_count",
          "event_id_audit",
          "checks",
          "summary",
          "logs");

  /** The named checks of the poison-dlq scenario, in report order. */
  public static final List<String> CHECKS =
      List.of(
          "poison_was_non_avro",
          "exactly_one_dlq_record",
          "dlq_has_error_metadata",
          "dlq_preserved_original_value",
          "main_job_survived_poison",
          "checkpoint_advanced_after_poison",
          "repair_replayed_with_registered_avro",
          "repair_converged_before_connector_resume",
          "connector_resumed",
          "post_poison_event_flow_continued",
          "final_snapshot_diff_zero",
          "final_event_id_audit_consistent");

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Map<String, Object> sections = new LinkedHashMap<>();
  private final Map<String, Boolean> checks = new LinkedHashMap<>();

  public VerifyReport() {
    KEYS.forEach(key -> sections.put(key, null));
    sections.put("report_version", VERSION);
    CHECKS.forEach(check -> checks.put(check, false));
    sections.put("checks", Collections.unmodifiableMap(checks));
  }

  /**
   * Sets a top-level section.
   *
   * @throws IllegalArgumentException for a key the format does not have, or {@code checks} (set
   *     with {@link #check})
   */
  public VerifyReport put(String key, Object value) {
    if (!sections.containsKey(key) || key.equals("checks") || key.equals("report_version")) {
      throw new IllegalArgumentException(
          "the verification report has no settable key '" + key + "'");
    }
    sections.put(key, value);
    return this;
  }

  /** The value of a section (null when unset). */
  public Object get(String key) {
    return sections.get(key);
  }

  /**
   * Records the outcome of a named check.
   *
   * @throws IllegalArgumentException for a name that is not one of {@link #CHECKS}
   */
  public VerifyReport check(String name, boolean passed) {
    if (!checks.containsKey(name)) {
      throw new IllegalArgumentException("unknown check '" + name + "'; known: " + CHECKS);
    }
    checks.put(name, passed);
    return this;
  }

  /** The checks in report order. */
  public Map<String, Boolean> checks() {
    return Collections.unmodifiableMap(checks);
  }

  /** True when every check holds. */
  public boolean passed() {
    return checks.values().stream().allMatch(Boolean::booleanValue);
  }

  /** The report as indented JSON. */
  public String toJson() {
    try {
      return JSON.writeValueAsString(sections);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot render the verification report", e);
    }
  }

  /** Writes the report to {@code file} (its directory is created when missing). */
  public void write(Path file) {
    try {
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Files.writeString(file, toJson() + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the verification report " + file, e);
    }
  }
}
