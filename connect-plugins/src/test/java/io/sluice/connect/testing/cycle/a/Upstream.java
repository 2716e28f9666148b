package io.sluice.connect.testing.cycle.a;

import io.sluice.connect.testing.cycle.b.Downstream;

/** One half of a package cycle on purpose: {@code PackageCyclesTest} shows its rule catches it. */
public final class Upstream {
  Downstream next;
}
