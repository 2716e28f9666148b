package io.sluice.schema.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RegistryClientSettingsTest {

  @Test
  void defaultsAndTrailingSlashes() {
    RegistryClientSettings settings = RegistryClientSettings.defaults(" http://127.0.0.1:8081// ");

    assertThat(settings.url()).isEqualTo("http://127.0.0.1:8081");
    assertThat(settings.requestTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(settings.negativeCacheTtl()).isEqualTo(Duration.ofSeconds(5));
    assertThat(settings.maxCacheEntries()).isEqualTo(10_000);
  }

  @Test
  void rejectsAUrlWithoutHttpScheme() {
    assertThatThrownBy(() -> RegistryClientSettings.defaults("127.0.0.1:8081"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "schema registry url must start with http:// or https://, got '127.0.0.1:8081'");
  }

  @Test
  void rejectsANonPositiveTimeout() {
    assertThatThrownBy(
            () -> new HttpSchemaRegistryClient("http://127.0.0.1:1", Duration.ZERO, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("requestTimeout must be > 0, got PT0S");
  }
}
