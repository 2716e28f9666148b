package io.sluice.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortTest {
  @Test
  void picksPortsThatAreNotTakenYet() {
    Set<Integer> taken = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      int port = FreePort.pickOtherThan(taken);

      assertThat(port).isBetween(1, 65535).isNotIn(taken);
      taken.add(port);
    }
  }
}
