package io.sluice.lab.stack;

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
                first.connect()))
        .allMatch(port -> port > 0 && port <= 65535)
        .doesNotHaveDuplicates();
    assertThat(StackPorts.resolve(dataDir, StackPorts.Requested.NONE)).isEqualTo(first);
    assertThat(StackPorts.read(dataDir)).isEqualTo(first);
  }

  @Test
  void requestedPortsWinAndAreKeptForTheNextStart() {
    StackPorts first = StackPorts.resolve(dataDir, StackPorts.Requested.NONE);

    StackPorts second =
        StackPorts.resolve(dataDir, new StackPorts.Requested(39092, 0, 39400, 0, 39500, 39600));

    assertThat(second)
        .isEqualTo(
            new StackPorts(
                39092, first.controller(), first.registry(), 39400, first.mariadb(), 39500, 39600));
    assertThat(StackPorts.resolve(dataDir, StackPorts.Requested.NONE)).isEqualTo(second);
  }

  @Test
  void aBrokenStoredPortIsReportedWithItsKey() throws Exception {
    Files.writeString(dataDir.resolve(StackPorts.FILE_NAME), "kafka.port=ninety\n");

    assertThatThrownBy(() -> StackPorts.resolve(dataDir, StackPorts.Requested.NONE))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("stack.properties: kafka.port=ninety is not a TCP port (1-65535)");
  }
}
