package io.sluice.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The ready file of {@code sluice up} as the tools' commands read it: endpoints come from flags
 * first, then from this file; what is missing is named with the flag and the key. The keys the
 * tools read are defined here once; {@code sluice up}'s writer (lab) names them through these.
 */
public final class ReadyFile {
  public static final String BOOTSTRAP_SERVERS = "bootstrap_servers";
  public static final String SCHEMA_REGISTRY_URL = "schema_registry_url";

  /** The Iceberg catalog object: catalog properties plus {@code name}. */
  public static final String ICEBERG_CATALOG = "iceberg_catalog";

  private final Path path;
  private final CommandLine commandLine;

  /** The file at {@code path}, read for {@code commandLine} (which usage errors name). */
  public ReadyFile(Path path, CommandLine commandLine) {
    this.path = path;
    this.commandLine = commandLine;
  }

  /**
   * The file's JSON object; null when there is no file, or when it cannot be read and is not {@code
   * needed}.
   *
   * @throws ParameterException when the file is not a JSON object, or cannot be read and is needed
   */
  public JsonNode read(boolean needed) {
    if (!Files.exists(path)) {
      return null;
    }
    try {
      JsonNode root = new ObjectMapper().readTree(path.toFile());
      if (root == null || !root.isObject()) {
        throw new ParameterException(
            commandLine, "ready file " + path.toAbsolutePath() + " is not a JSON object");
      }
      return root;
    } catch (IOException e) {
      if (!needed) {
        return null;
      }
      throw new ParameterException(
          commandLine, "cannot read ready file " + path.toAbsolutePath() + ": " + e.getMessage());
    }
  }

  /** The text under {@code key}; null when {@code root} is null or the value is null or blank. */
  public static String text(JsonNode root, String key) {
    JsonNode value = root == null ? null : root.get(key);
    return value == null || value.isNull() || value.asText().isBlank() ? null : value.asText();
  }

  /** The usage error for an endpoint that neither {@code flag} nor the file's {@code key} gave. */
  public ParameterException missing(String flag, String key) {
    String where =
        Files.exists(path)
            ? "ready file " + path.toAbsolutePath() + " has no " + key
            : "there is no ready file at " + path.toAbsolutePath();
    return new ParameterException(
        commandLine,
        "no "
            + flag
            + " given and "
            + where
            + "; pass "
            + flag
            + ", or start the stack with `scripts/sluice up` (or point --ready-file at its file)");
  }
}
