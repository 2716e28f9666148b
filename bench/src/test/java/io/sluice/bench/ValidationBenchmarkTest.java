package io.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.router.validate.ValidationResult;
import org.junit.jupiter.api.Test;

class ValidationBenchmarkTest {
  @Test
  void everyBenchmarkedRecordIsValidSoTheHotPathIsWhatIsMeasured() {
    ValidationBenchmark benchmark = new ValidationBenchmark();
    benchmark.setUp();

    for (int i = 0; i < 2048; i++) {
      assertThat(benchmark.validateOrderEnvelope()).isEqualTo(ValidationResult.VALID);
    }
  }
}
