package io.sluice.embedded;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KafkaMainTest {
  @Test
  void aBadPortIsNamedWithItsFlagBeforeAnythingStarts() {
    assertThatThrownBy(() -> KafkaMain.main(new String[] {"--log-dir", "x", "--port", "99999"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--port must be a port 0-65535")
        .hasMessageContaining("'99999'");
  }

  @Test
  void anUnknownFlagIsNamed() {
    assertThatThrownBy(() -> KafkaMain.main(new String[] {"--log-dir", "x", "--prot", "1"}))
        .hasMessageContaining("unknown flag or missing value at '--prot'");
  }

  @Test
  void theLogDirIsRequired() {
    assertThatThrownBy(() -> KafkaMain.main(new String[] {"--port", "0"}))
        .hasMessage("KafkaMain needs --log-dir DIR");
  }
}
