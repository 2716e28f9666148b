package io.sluice.scenarios.sinkpoison;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.ConnectRestClient.ConnectorStatus;
import io.sluice.scenarios.ScenarioFailure;
import java.util.List;

/**
 * The state of one sink connector and its tasks, from Connect's REST status.
 *
 * @param connector the connector's name
 * @param state the connector's state ("UNREACHABLE: ..." when Connect did not answer)
 * @param taskStates each task's state, in task order
 * @param running true when the connector and every task (at least one) are RUNNING
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record SinkStatus(String connector, String state, List<String> taskStates, boolean running) {

  /**
   * The status of {@code connector} at {@code connectUrl}.
   *
   * @throws ScenarioFailure when the stack names no Connect URL
   */
  static SinkStatus of(String connectUrl, String connector) {
    if (connectUrl == null) {
      throw new ScenarioFailure(
          "the stack names no connect_url: the sink-poison scenario reads the sinks' status");
    }
    try {
      ConnectorStatus status = new ConnectRestClient(connectUrl).status(connector);
      return new SinkStatus(
          connector,
          status.state(),
          status.tasks().stream().map(ConnectRestClient.TaskStatus::state).toList(),
          status.running());
    } catch (RuntimeException e) {
      return new SinkStatus(
          connector, "UNREACHABLE: " + e.getClass().getSimpleName(), List.of(), false);
    }
  }
}
