package io.sluice.scenarios;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** The report's {@code environment}: the machine and JVM a run ran on. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Environment(
    Cpu cpu, Ram ram, String os, String kernel, String java, LoadAverage loadAverage) {

  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Cpu(int logicalCpus, String model, String arch) {}

  /** Total and free bytes are absent where the JVM cannot tell them. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Ram(
      @JsonInclude(JsonInclude.Include.NON_NULL) Long totalBytes,
      @JsonInclude(JsonInclude.Include.NON_NULL) Long freeBytes,
      long jvmMaxHeapBytes) {}

  /** {@code /proc/loadavg} as {"1m", "5m", "15m"}, or where it cannot be read, the JVM's figure. */
  public sealed interface LoadAverage permits ProcLoadAverage, JvmLoadAverage {}

  public record ProcLoadAverage(
      @JsonProperty("1m") double oneMinute,
      @JsonProperty("5m") double fiveMinutes,
      @JsonProperty("15m") double fifteenMinutes)
      implements LoadAverage {}

  /** The one-minute load average of the JVM's operating-system bean, written as a bare number. */
  public record JvmLoadAverage(@JsonValue double oneMinute) implements LoadAverage {}
}
