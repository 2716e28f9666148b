package io.sluice.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class VerifyCommandTest {
  @Test
  void theReportsCommandNamesVerifyOnceWhetherItRanUnderSluiceOrAlone() {
    assertThat(VerifyCommand.commandText(List.of("verify", "--failure", "poison-dlq")))
        .isEqualTo("sluice verify --failure poison-dlq");
    assertThat(VerifyCommand.commandText(List.of("--failure", "poison-dlq", "--seed", "7")))
        .isEqualTo("sluice verify --failure poison-dlq --seed 7");
    assertThat(VerifyCommand.commandText(List.of())).isEqualTo("sluice verify");
  }
}
