package io.sluice.connect.testing.cycle.b;

import io.sluice.connect.testing.cycle.a.Upstream;

/** The other half of the package cycle of {@link Upstream}. */
public final class Downstream {
  Upstream back;
}
