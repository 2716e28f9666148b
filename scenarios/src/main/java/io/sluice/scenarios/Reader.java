package io.sluice.scenarios;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** The report's {@code reader}: how a scenario read the Iceberg tables. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Reader(String api, String snapshot, boolean deletesApplied, String description) {

  /** What every scenario reads with ({@link LakeState}). */
  public static final Reader ICEBERG_GENERICS =
      new Reader(
          "org.apache.iceberg.data.IcebergGenerics",
          "current snapshot of each table at read time",
          true,
          "Iceberg's own generic reader: equality and position deletes applied, as any engine"
              + " configured from the ready file's iceberg_catalog reads the tables");
}
