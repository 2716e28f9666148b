package io.sluice.tools.dlq.record;

import io.sluice.dlq.DlqHeaders;
import io.sluice.tools.dlq.kafka.Coordinates;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.apache.kafka.common.header.Header;

/**
 * Which input a DLQ record stands for: the stage that quarantined it, the connector for a sink
 * (from {@code __connect.errors.connector.name}) and where the input was. Two DLQ records with the
 * same identity are copies of one quarantine: the upsert sink writes each input once, except that a
 * zombie task (one that lost its partitions in a rebalance and does not know yet) and its successor
 * may both write it before the Iceberg offset fence stops the zombie. The task id is not part of
 * it: the successor may be another task. Two connectors quarantining the same input are two
 * identities.
 *
 * @param stage the router or a sink
 * @param connector the sink's connector; null for the router
 * @param original where the input record was
 */
public record InputIdentity(Stage stage, String connector, Coordinates original) {

  /** Who quarantined the input. */
  public enum Stage {
    ROUTER,
    SINK;

    /** {@code router} or {@code sink}. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The identity of a readable entry: a sink's when it carries {@code
   * __connect.errors.connector.name} or its envelope names a {@code sink_connector}, else the
   * router's.
   *
   * @throws IllegalArgumentException when the entry could not be read
   */
  public static InputIdentity of(DlqEntry entry) {
    if (!entry.readable()) {
      throw new IllegalArgumentException(
          entry.describe() + " could not be read, so it names no input: " + entry.problem());
    }
    String connector = connectorHeader(entry);
    if (connector == null) {
      connector = entry.envelope().sinkConnector();
    }
    return new InputIdentity(
        connector == null ? Stage.ROUTER : Stage.SINK, connector, entry.original());
  }

  /** E.g. {@code router input t-1@5}, {@code sink sluice-upsert-sink input t.clean-1@5}. */
  @Override
  public String toString() {
    return stage.label() + (connector == null ? "" : " " + connector) + " input " + original;
  }

  private static String connectorHeader(DlqEntry entry) {
    String found = null;
    for (Header header : entry.headers()) {
      if (DlqHeaders.CONNECT_CONNECTOR_NAME.equals(header.key()) && header.value() != null) {
        found = new String(header.value(), StandardCharsets.UTF_8);
      }
    }
    return found;
  }
}
