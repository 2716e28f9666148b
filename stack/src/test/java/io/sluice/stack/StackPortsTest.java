package io.sluice.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackPortsTest {
  @TempDir Path dataDir;

  @Test
  void firstStartPicksPortsAndStoresThemForTheNext() {
    StackPorts first = StackPorts.resolve(dataDir, StackPorts.Requested.NONE);

    assertThat(dataDir.resolve(StackPorts.FILE_NAME)).exists();
    assertThat(
            List.of(
                first.kafka(),
                first.controller(),
                first.registry(),
                first.metrics(),
                first.connect(),
                first.prometheus()))
        .allMatch(port -> port > 0 && port <= 65535)
        .doesNotHaveDuplicates();
    assertThat(StackPorts.resolve(dataDir, StackPorts.Requested.NONE)).isEqualTo(first);
    assertThat(StackPorts.read(dataDir)).isEqualTo(first);
  }

  @Test
  void anInstancePortIsNewToTheFileAndSurvivesTheNextResolve() {
    StackPorts ports = StackPorts.resolve(dataDir, StackPorts.Requested.NONE);

    int router2 = StackPorts.instance(dataDir, "router.2.metrics.port");
    int connect2 = StackPorts.instance(dataDir, "connect.2.rest.port");

    assertThat(List.of(ports.kafka(), ports.metrics(), ports.connect(), ports.control()))
        .doesNotContain(router2, connect2);
    assertThat(router2).isNotEqualTo(connect2);
    assertThat(StackPorts.resolve(dataDir, StackPorts.Requested.NONE)).isEqualTo(ports);
    assertThat(StackPorts.instance(dataDir, "router.2.metrics.port")).isEqualTo(router2);
    assertThat(StackPorts.instance(dataDir, "connect.2.rest.port")).isEqualTo(connect2);
  }

  @Test
  void requestedPortsWinAndAreKeptForTheNextStart() {
    StackPorts first = StackPorts.resolve(dataDir, StackPorts.Requested.NONE);

    StackPorts second =
        StackPorts.resolve(
            dataDir, new StackPorts.Requested(39092, 0, 39400, 0, 39500, 39600, 39090));

    assertThat(second)
        .isEqualTo(
            new StackPorts(
                39092,
                first.controller(),
                first.registry(),
                39400,
                first.mariadb(),
                39500,
                39600,
                39090,
                first.upsertSinkMetrics(),
                first.monitorMetrics(),
                first.control()));
    assertThat(StackPorts.resolve(dataDir, StackPorts.Requested.NONE)).isEqualTo(second);
  }

  @Test
  void aFileFromBeforePrometheusKeepsItsPortsAndGainsAPrometheusPort() throws Exception {
    Files.writeString(
        dataDir.resolve(StackPorts.FILE_NAME),
        "kafka.port=39092\nkafka.controller.port=39093\nschema.registry.port=39081\n"
            + "router.metrics.port=39400\nmariadb.port=39306\ncapture.admin.port=39500\n"
            + "connect.rest.port=39600\n");

    StackPorts ports = StackPorts.resolve(dataDir, StackPorts.Requested.NONE);

    assertThat(ports.kafka()).isEqualTo(39092);
    assertThat(ports.connect()).isEqualTo(39600);
    assertThat(ports.prometheus()).isBetween(1, 65535);
    assertThat(Files.readString(dataDir.resolve(StackPorts.FILE_NAME)))
        .contains("prometheus.port=" + ports.prometheus());
    assertThat(StackPorts.read(dataDir)).isEqualTo(ports);
    assertThat(List.of(ports.upsertSinkMetrics(), ports.monitorMetrics(), ports.control()))
        .as("the process stack's ports, picked free and none twice")
        .allMatch(p -> p >= 1 && p <= 65535)
        .doesNotHaveDuplicates()
        .doesNotContain(39092, 39093, 39081, 39400, 39306, 39500, 39600, ports.prometheus());
  }

  @Test
  void aBrokenStoredPortIsReportedWithItsKey() throws Exception {
    Files.writeString(dataDir.resolve(StackPorts.FILE_NAME), "kafka.port=ninety\n");

    assertThatThrownBy(() -> StackPorts.resolve(dataDir, StackPorts.Requested.NONE))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("stack.properties: kafka.port=ninety is not a TCP port (1-65535)");
  }
}
