package io.sluice.schema.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.schema.registry.RegistryUnavailableException;
import io.sluice.schema.registry.SchemaNotFoundException;
import io.sluice.schema.registry.SubjectNotFoundException;
import io.sluice.schema.registry.SubjectVersion;
import io.sluice.schema.registry.VersionNotFoundException;
import org.junit.jupiter.api.Test;

class InMemorySchemaRegistryClientTest {
  private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();

  @Test
  void oneGlobalIdPerSchemaAndOneVersionPerSchemaOfASubject() {
    int v1 = registry.register("orders-value", Schemas.ORDER_V1);
    int key = registry.register("orders-key", Schemas.ORDER_KEY);
    int v2 = registry.register("orders-value", Schemas.ORDER_V2);

    assertThat(registry.register("orders-value", Schemas.ORDER_V1)).isEqualTo(v1);
    assertThat(registry.register("copy-value", Schemas.ORDER_V1)).isEqualTo(v1);
    assertThat(new int[] {v1, key, v2}).containsExactly(1, 2, 3);
    assertThat(registry.versions("orders-value")).containsExactly(1, 2);
    assertThat(registry.latest("orders-value").id()).isEqualTo(v2);
    assertThat(registry.version("orders-value", 1).schema()).isEqualTo(Schemas.ORDER_V1);
    assertThat(registry.lookup("orders-value", Schemas.ORDER_V2).version()).isEqualTo(2);
    assertThat(registry.subjectVersionsById(v1))
        .containsExactly(
            new SubjectVersion("orders-value", 1), new SubjectVersion("copy-value", 1));
    assertThat(registry.isIdInSubject("orders-key", key)).isTrue();
    assertThat(registry.isIdInSubject("orders-key", v1)).isFalse();
    assertThat(registry.isIdInSubject("no-such-subject", v1)).isFalse();
    assertThat(registry.subjects()).containsExactly("orders-value", "orders-key", "copy-value");
  }

  @Test
  void unknownIdsSubjectsAndVersionsThrowTheRegistrysExceptions() {
    registry.register("orders-value", Schemas.ORDER_V1);

    assertThatThrownBy(() -> registry.schemaById(9))
        .isInstanceOf(SchemaNotFoundException.class)
        .hasMessage("schema id 9 not found");
    assertThatThrownBy(() -> registry.isIdInSubject("orders-value", 9))
        .isInstanceOf(SchemaNotFoundException.class)
        .hasMessage("schema id 9 not found");
    assertThatThrownBy(() -> registry.latest("orders-key"))
        .isInstanceOf(SubjectNotFoundException.class)
        .hasMessage("subject orders-key not found");
    assertThatThrownBy(() -> registry.version("orders-value", 2))
        .isInstanceOf(VersionNotFoundException.class)
        .hasMessage("version 2 of subject orders-value not found");
    assertThatThrownBy(() -> registry.lookup("orders-value", Schemas.ORDER_V2))
        .isInstanceOf(SchemaNotFoundException.class)
        .hasMessage("schema not found under subject orders-value");
  }

  @Test
  void failNextMakesThatManyCallsUnavailableAndEveryCallCounts() {
    int id = registry.register("orders-value", Schemas.ORDER_V1);
    registry.failNext(2);

    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> registry.schemaById(id))
          .isInstanceOf(RegistryUnavailableException.class)
          .hasMessageContaining("registry unavailable");
    }
    assertThat(registry.schemaById(id)).isEqualTo(Schemas.ORDER_V1);
    assertThat(registry.calls()).isEqualTo(4);
  }

  @Test
  void compatibilityIsStoredPerSubjectWithTheGlobalLevelAsDefault() {
    assertThat(registry.compatibility(null)).isEqualTo("BACKWARD");
    registry.setCompatibility(null, "FULL");
    registry.setCompatibility("orders-value", "NONE");

    assertThat(registry.compatibility("orders-value")).isEqualTo("NONE");
    assertThat(registry.compatibility("orders-key")).isEqualTo("FULL");
    assertThat(registry.isCompatible("orders-value", Schemas.ORDER_NO_DEFAULT)).isTrue();
  }
}
