package io.sluice.scenarios;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** The report's {@code stack_versions}: libraries from their jars, MariaDB from the server. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record StackVersions(
    String kafka,
    String kafkaStreams,
    String kafkaConnect,
    String debezium,
    String iceberg,
    String avro,
    String mariadb,
    String java) {}
