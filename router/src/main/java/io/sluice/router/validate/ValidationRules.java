package io.sluice.router.validate;

import io.sluice.router.config.RouterConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The configurable part of validation: whether the Debezium contract is checked, which {@code op}
 * values it accepts, and whether the schema lineage is checked.
 */
public record ValidationRules(
    boolean contractEnabled, List<String> allowedOps, boolean lineageChecked) {
  public ValidationRules {
    allowedOps = List.copyOf(allowedOps);
  }

  /** These contract rules with the schema lineage checked (the default). */
  public ValidationRules(boolean contractEnabled, List<String> allowedOps) {
    this(contractEnabled, allowedOps, true);
  }

  /** Contract on, ops c, u, d, r, lineage checked. */
  public static ValidationRules defaults() {
    return new ValidationRules(true, List.of("c", "u", "d", "r"), true);
  }

  public static ValidationRules from(RouterConfig config) {
    return new ValidationRules(
        config.contractEnabled(), config.contractAllowedOps(), config.schemaLineageChecked());
  }

  byte[][] allowedOpBytes() {
    byte[][] ops = new byte[allowedOps.size()][];
    for (int i = 0; i < ops.length; i++) {
      ops[i] = allowedOps.get(i).getBytes(StandardCharsets.UTF_8);
    }
    return ops;
  }
}
