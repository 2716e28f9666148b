package io.sluice.embedded.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadyLineTest {
  @Test
  void aFixedLineParsesToItsPairs() {
    ReadyLine ready = ReadyLine.parse("READY bootstrap=127.0.0.1:9092 url=http://127.0.0.1:8081");

    assertThat(ready.value("bootstrap")).isEqualTo("127.0.0.1:9092");
    assertThat(ready.value("url")).isEqualTo("http://127.0.0.1:8081");
  }

  @Test
  void formatAndParseRoundTrip() {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("broker_pid", "42");
    values.put("url", "http://127.0.0.1:8081");

    String line = ReadyLine.format(values);

    assertThat(line).isEqualTo("READY broker_pid=42 url=http://127.0.0.1:8081");
    assertThat(ReadyLine.parse(line).values()).isEqualTo(values);
  }

  @Test
  void onlyALineStartingWithTheWordReadyIsOne() {
    assertThat(ReadyLine.isReady("READY")).isTrue();
    assertThat(ReadyLine.isReady("READYING the broker")).isFalse();
    assertThat(ReadyLine.isReady("12:00:00 INFO READY bootstrap=x")).isFalse();
  }

  @Test
  void aMissingKeyNamesTheKeyAndTheLine() {
    ReadyLine ready = ReadyLine.parse("READY url=http://127.0.0.1:8081");

    assertThatThrownBy(() -> ready.value("bootstrap"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the READY line has no bootstrap=...: READY url=http://127.0.0.1:8081");
  }
}
