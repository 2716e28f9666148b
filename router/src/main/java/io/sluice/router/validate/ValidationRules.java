package io.sluice.router.validate;

import io.sluice.router.config.RouterConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The configurable part of validation: whether the Debezium contract is checked, and which {@code
 * op} values it accepts.
 */
public record ValidationRules(boolean contractEnabled, List<String> allowedOps) {
  public ValidationRules {
    allowedOps = List.copyOf(allowedOps);
  }

  /** Contract on, ops c, u, d, r. */
  public static ValidationRules defaults() {
    return new ValidationRules(true, List.of("c", "u", "d", "r"));
  }

  public static ValidationRules from(RouterConfig config) {
    return new ValidationRules(config.contractEnabled(), config.contractAllowedOps());
  }

  byte[][] allowedOpBytes() {
    byte[][] ops = new byte[allowedOps.size()][];
    for (int i = 0; i < ops.length; i++) {
      ops[i] = allowedOps.get(i).getBytes(StandardCharsets.UTF_8);
    }
    return ops;
  }
}
