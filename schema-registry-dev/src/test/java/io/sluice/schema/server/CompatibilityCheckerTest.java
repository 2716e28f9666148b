package io.sluice.schema.server;

import static io.sluice.schema.server.CompatibilityLevel.BACKWARD;
import static io.sluice.schema.server.CompatibilityLevel.BACKWARD_TRANSITIVE;
import static io.sluice.schema.server.CompatibilityLevel.FORWARD;
import static io.sluice.schema.server.CompatibilityLevel.FORWARD_TRANSITIVE;
import static io.sluice.schema.server.CompatibilityLevel.FULL;
import static io.sluice.schema.server.CompatibilityLevel.FULL_TRANSITIVE;
import static io.sluice.schema.server.CompatibilityLevel.NONE;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class CompatibilityCheckerTest {
  private static final Schema ID_NAME =
      record("{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"name\",\"type\":\"string\"}");
  private static final Schema ID_ONLY = record("{\"name\":\"id\",\"type\":\"long\"}");
  private static final Schema WITH_DEFAULTED_EMAIL =
      record(
          "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"name\",\"type\":\"string\"},"
              + "{\"name\":\"email\",\"type\":\"string\",\"default\":\"\"}");
  private static final Schema WITH_REQUIRED_EMAIL =
      record(
          "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"name\",\"type\":\"string\"},"
              + "{\"name\":\"email\",\"type\":\"string\"}");
  private static final Schema DEFAULTED_NAME =
      record(
          "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"name\",\"type\":\"string\",\"default\":\"x\"}");

  @Test
  void addingAFieldWithADefaultIsFullyCompatible() {
    for (CompatibilityLevel level : CompatibilityLevel.values()) {
      assertThat(CompatibilityChecker.problems(level, WITH_DEFAULTED_EMAIL, List.of(ID_NAME)))
          .as(level.name())
          .isEmpty();
    }
  }

  @Test
  void addingARequiredFieldBreaksBackwardOnly() {
    assertThat(CompatibilityChecker.problems(BACKWARD, WITH_REQUIRED_EMAIL, List.of(ID_NAME)))
        .singleElement()
        .asString()
        .contains("READER_FIELD_MISSING_DEFAULT_VALUE")
        .contains("email")
        .contains("new schema as reader");
    assertThat(CompatibilityChecker.problems(FORWARD, WITH_REQUIRED_EMAIL, List.of(ID_NAME)))
        .isEmpty();
    assertThat(CompatibilityChecker.problems(FULL, WITH_REQUIRED_EMAIL, List.of(ID_NAME)))
        .hasSize(1);
    assertThat(CompatibilityChecker.problems(NONE, WITH_REQUIRED_EMAIL, List.of(ID_NAME)))
        .isEmpty();
  }

  @Test
  void removingARequiredFieldBreaksForwardOnly() {
    assertThat(CompatibilityChecker.problems(BACKWARD, ID_ONLY, List.of(ID_NAME))).isEmpty();
    assertThat(CompatibilityChecker.problems(FORWARD, ID_ONLY, List.of(ID_NAME)))
        .singleElement()
        .asString()
        .contains("READER_FIELD_MISSING_DEFAULT_VALUE")
        .contains("old schema as reader");
  }

  @Test
  void transitiveLevelsCheckEveryEarlierVersionNotOnlyTheLatest() {
    // ID_ONLY -> DEFAULTED_NAME is fine; ID_NAME reads DEFAULTED_NAME data but not ID_ONLY data.
    List<Schema> history = List.of(ID_ONLY, DEFAULTED_NAME);

    assertThat(CompatibilityChecker.problems(BACKWARD, ID_NAME, history)).isEmpty();
    assertThat(CompatibilityChecker.problems(BACKWARD_TRANSITIVE, ID_NAME, history)).hasSize(1);
    assertThat(CompatibilityChecker.problems(FULL, ID_NAME, history)).isEmpty();
    assertThat(CompatibilityChecker.problems(FULL_TRANSITIVE, ID_NAME, history)).hasSize(1);
    assertThat(
            CompatibilityChecker.problems(
                FORWARD_TRANSITIVE, ID_ONLY, List.of(ID_NAME, DEFAULTED_NAME)))
        .as("ID_NAME cannot read data without name")
        .hasSize(1);
    assertThat(CompatibilityChecker.problems(FORWARD, ID_ONLY, List.of(ID_NAME, DEFAULTED_NAME)))
        .isEmpty();
  }

  @Test
  void aFirstVersionIsAlwaysCompatible() {
    assertThat(CompatibilityChecker.problems(FULL_TRANSITIVE, ID_NAME, List.of())).isEmpty();
  }

  @Test
  void levelsParseCaseInsensitivelyAndRejectUnknownNames() {
    assertThat(CompatibilityLevel.parse(" backward_transitive ")).isEqualTo(BACKWARD_TRANSITIVE);
    assertThat(CompatibilityLevel.parse("SIDEWAYS")).isNull();
    assertThat(CompatibilityLevel.parse(null)).isNull();
  }

  private static Schema record(String fields) {
    return new Schema.Parser()
        .parse("{\"type\":\"record\",\"name\":\"User\",\"fields\":[" + fields + "]}");
  }
}
