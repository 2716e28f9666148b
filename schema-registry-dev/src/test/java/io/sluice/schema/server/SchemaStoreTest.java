package io.sluice.schema.server;

import static io.sluice.schema.testing.Schemas.ORDER_KEY_TEXT;
import static io.sluice.schema.testing.Schemas.ORDER_NO_DEFAULT_TEXT;
import static io.sluice.schema.testing.Schemas.ORDER_V1_TEXT;
import static io.sluice.schema.testing.Schemas.ORDER_V2_TEXT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.schema.registry.IncompatibleSchemaException;
import io.sluice.schema.registry.InvalidSchemaException;
import io.sluice.schema.registry.RegistryException;
import io.sluice.schema.registry.SchemaNotFoundException;
import io.sluice.schema.registry.SubjectNotFoundException;
import io.sluice.schema.registry.SubjectVersion;
import io.sluice.schema.registry.VersionNotFoundException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Registration semantics without Kafka: the durable log is a list. */
class SchemaStoreTest {
  private static final String VALUE = "orders-value";

  private final List<LogEntry> logged = new ArrayList<>();
  private final SchemaStore store = new SchemaStore(new RegistryState(), logged::add);

  @Test
  void idsAreGlobalAndReusedForTheSameSchemaInAnySubject() {
    int v1 = store.register(VALUE, ORDER_V1_TEXT);
    int key = store.register("orders-key", ORDER_KEY_TEXT);
    int again = store.register(VALUE, ORDER_V1_TEXT);
    int copy = store.register("copy-value", reformatted(ORDER_V1_TEXT));

    assertThat(List.of(v1, key, again, copy)).containsExactly(1, 2, 1, 1);
    assertThat(store.versions(VALUE)).containsExactly(1);
    assertThat(store.usages(1))
        .containsExactly(new SubjectVersion("copy-value", 1), new SubjectVersion(VALUE, 1));
    assertThat(logged).as("re-registering writes nothing").hasSize(3);
  }

  @Test
  void aCompatibleChangeBecomesTheNextVersionWithTheNextId() {
    store.register("orders-key", ORDER_KEY_TEXT);
    store.register(VALUE, ORDER_V1_TEXT);

    int v2 = store.register(VALUE, ORDER_V2_TEXT);

    assertThat(v2).isEqualTo(3);
    assertThat(store.version(VALUE, "latest").version()).isEqualTo(2);
    assertThat(store.version(VALUE, "-1").id()).isEqualTo(3);
    assertThat(store.version(VALUE, "1").id()).isEqualTo(2);
  }

  @Test
  void anIncompatibleChangeIsRefusedAndNothingIsWritten() {
    store.register(VALUE, ORDER_V1_TEXT);

    assertThat(store.isCompatible(VALUE, "latest", ORDER_NO_DEFAULT_TEXT)).isFalse();
    assertThatThrownBy(() -> store.register(VALUE, ORDER_NO_DEFAULT_TEXT))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("subject \"orders-value\" (compatibility BACKWARD)")
        .hasMessageContaining("amount");
    assertThat(logged).hasSize(1);

    store.setLevel(VALUE, "none");
    assertThat(store.register(VALUE, ORDER_NO_DEFAULT_TEXT)).isEqualTo(2);
  }

  @Test
  void compatibilityAgainstAnUnknownSubjectIsTrue() {
    assertThat(store.isCompatible("new-value", "latest", ORDER_V1_TEXT)).isTrue();
  }

  @Test
  void invalidSchemasAreRefusedWith42201() {
    assertThatThrownBy(() -> store.register(VALUE, "{\"type\":\"nope\"}"))
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageStartingWith("Invalid schema: ");
    assertThatThrownBy(() -> store.register(VALUE, "not json"))
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageStartingWith("Invalid schema: ");
    assertThatThrownBy(() -> store.register(VALUE, " "))
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessage("Invalid schema: empty schema");
    assertThat(logged).isEmpty();
  }

  @Test
  void missingThingsAnswerTheirConfluentCodes() {
    store.register(VALUE, ORDER_V1_TEXT);

    assertThatThrownBy(() -> store.versions("nope"))
        .isInstanceOf(SubjectNotFoundException.class)
        .hasMessage("Subject 'nope' not found.");
    assertThatThrownBy(() -> store.version(VALUE, "7"))
        .isInstanceOf(VersionNotFoundException.class)
        .hasMessage("Version 7 not found in subject orders-value");
    assertThatThrownBy(() -> store.version(VALUE, "first"))
        .isInstanceOf(RegistryException.class)
        .hasMessageContaining("'first' is not a valid version id")
        .extracting(e -> ((RegistryException) e).errorCode())
        .isEqualTo(42202);
    assertThatThrownBy(() -> store.schemaText(9))
        .isInstanceOf(SchemaNotFoundException.class)
        .hasMessage("Schema 9 not found");
    assertThatThrownBy(() -> store.usages(9))
        .isInstanceOf(SchemaNotFoundException.class)
        .hasMessage("Schema 9 not found");
    assertThatThrownBy(() -> store.lookup(VALUE, ORDER_V2_TEXT))
        .isInstanceOf(SchemaNotFoundException.class)
        .hasMessage("Schema not found in subject orders-value");
  }

  @Test
  void subjectLevelFallsBackToGlobalOnlyWhenAsked() {
    assertThat(store.globalLevel()).isEqualTo(CompatibilityLevel.BACKWARD);
    assertThatThrownBy(() -> store.subjectLevel(VALUE, false))
        .isInstanceOf(RegistryException.class)
        .hasMessage("Subject 'orders-value' does not have subject-level compatibility configured")
        .extracting(e -> ((RegistryException) e).errorCode())
        .isEqualTo(40408);
    assertThat(store.subjectLevel(VALUE, true)).isEqualTo(CompatibilityLevel.BACKWARD);

    store.setLevel(null, "FULL");
    assertThat(store.subjectLevel(VALUE, true)).isEqualTo(CompatibilityLevel.FULL);
    assertThatThrownBy(() -> store.setLevel(VALUE, "SIDEWAYS"))
        .isInstanceOf(RegistryException.class)
        .hasMessage("Invalid compatibility level: SIDEWAYS")
        .extracting(e -> ((RegistryException) e).errorCode())
        .isEqualTo(42203);
  }

  @Test
  void aFailedWriteAnswers500AndChangesNothing() {
    SchemaStore failing =
        new SchemaStore(
            new RegistryState(),
            entry -> {
              throw new IllegalStateException("write to _schemas failed: broker down");
            });

    assertThatThrownBy(() -> failing.register(VALUE, ORDER_V1_TEXT))
        .isInstanceOf(RegistryException.class)
        .hasMessage(
            "Error while storing in the backend data store: write to _schemas failed: broker down")
        .extracting(e -> ((RegistryException) e).httpStatus())
        .isEqualTo(500);
    assertThat(failing.subjects()).isEmpty();
  }

  @Test
  void replayingTheLogRebuildsTheSameRegistry() {
    store.register(VALUE, ORDER_V1_TEXT);
    store.register("orders-key", ORDER_KEY_TEXT);
    store.register(VALUE, ORDER_V2_TEXT);
    store.setLevel("orders-key", "FULL");

    RegistryState rebuilt = new RegistryState();
    for (LogEntry entry : logged) {
      rebuilt.apply(LogEntryCodec.decode(LogEntryCodec.key(entry), LogEntryCodec.value(entry)));
    }
    SchemaStore restarted = new SchemaStore(rebuilt, entry -> {});

    assertThat(restarted.subjects()).containsExactly("orders-key", VALUE);
    assertThat(restarted.versions(VALUE)).containsExactly(1, 2);
    assertThat(restarted.version(VALUE, "2").id()).isEqualTo(3);
    assertThat(restarted.subjectLevel("orders-key", false)).isEqualTo(CompatibilityLevel.FULL);
    assertThat(restarted.register("other-value", ORDER_KEY_TEXT)).isEqualTo(2);
    assertThat(restarted.register("third-value", ORDER_V2_TEXT)).isEqualTo(3);
    assertThat(restarted.register("fourth-value", ORDER_NO_DEFAULT_TEXT))
        .as("next id")
        .isEqualTo(4);
  }

  /** The same schema with other whitespace and key order inside the JSON text. */
  private static String reformatted(String text) {
    return "  " + text.replace(",", " ,\n ").replace("\"type\":\"long\"", "\"type\" : \"long\"");
  }
}
