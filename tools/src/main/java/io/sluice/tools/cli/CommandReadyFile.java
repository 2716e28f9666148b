package io.sluice.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.contract.ReadyFile;
import io.sluice.contract.ReadyFileException;
import io.sluice.contract.TopicNames;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The {@link ReadyFile} as a command reads it: its problems are usage errors (exit 2, with the
 * usage) that name the flag to pass instead.
 */
public final class CommandReadyFile {
  private final ReadyFile file;
  private final CommandLine commandLine;

  public CommandReadyFile(Path path, CommandLine commandLine) {
    this.file = new ReadyFile(path);
    this.commandLine = commandLine;
  }

  public ReadyFile file() {
    return file;
  }

  /** {@link ReadyFile#read(boolean)}. */
  public JsonNode read(boolean needed) {
    try {
      return file.read(needed);
    } catch (ReadyFileException e) {
      throw usage(e);
    }
  }

  /** {@link ReadyFile#icebergCatalog()}. */
  public Map<String, String> icebergCatalog() {
    try {
      return file.icebergCatalog();
    } catch (ReadyFileException e) {
      throw usage(e);
    }
  }

  /** {@link ReadyFile#topicNames(JsonNode)}. */
  public TopicNames topicNames(JsonNode root) {
    try {
      return file.topicNames(root);
    } catch (ReadyFileException e) {
      throw usage(e);
    }
  }

  /** {@link ReadyFile#missing(String, String)}, as a usage error. */
  public ParameterException missing(String flag, String key) {
    return usage(file.missing(flag, key));
  }

  private ParameterException usage(ReadyFileException e) {
    return new ParameterException(commandLine, e.getMessage(), e);
  }
}
