package io.sluice.bench.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.bench.sink.ChangeStream.Change;
import io.sluice.stack.workload.OrderRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MaintenanceWorkloadTest {
  @Test
  void theSameSeedGivesTheSameChangesAndAnotherSeedOthers() {
    assertThat(all(new MaintenanceWorkload(50, 2_000, 7)))
        .isEqualTo(all(new MaintenanceWorkload(50, 2_000, 7)));
    assertThat(all(new MaintenanceWorkload(50, 2_000, 7)))
        .isNotEqualTo(all(new MaintenanceWorkload(50, 2_000, 8)));
  }

  @Test
  void everyKeyIsInsertedFirstInKeyOrderThenUpdated() {
    List<Change> changes = all(new MaintenanceWorkload(100, 5_000, 1));

    assertThat(changes).hasSize(5_100);
    for (int i = 0; i < 100; i++) {
      assertThat(changes.get(i).op()).isEqualTo("c");
      assertThat(changes.get(i).orderId()).isEqualTo(i + 1L);
    }
    List<Change> updates = changes.subList(100, changes.size());
    assertThat(updates).allMatch(c -> c.orderId() >= 1 && c.orderId() <= 100);
    Set<Long> touched = new HashSet<>();
    updates.forEach(c -> touched.add(c.orderId()));
    assertThat(touched).as("updates spread over every key").hasSize(100);
  }

  @Test
  void aFewDeletesAndReinsertsAreMixedIn() {
    MaintenanceWorkload workload = new MaintenanceWorkload(1_000, 20_000, 3);
    List<Change> changes = all(workload);

    MaintenanceWorkload.Counts counts = workload.counts();
    assertThat(counts.records()).isEqualTo(21_000);
    assertThat(counts.deletes()).as("about 1%% of 20,000").isBetween(120L, 280L);
    long reinserts =
        changes.subList(1_000, changes.size()).stream().filter(c -> c.op().equals("c")).count();
    assertThat(reinserts).isPositive().isLessThanOrEqualTo(counts.deletes());
    assertThat(counts.creates()).isEqualTo(1_000 + reinserts);
    assertThat(counts.updated()).isEqualTo(20_000 - reinserts - counts.deletes());
  }

  @Test
  void withoutSkewTheChangesAreTheUniformOnes() {
    assertThat(all(new MaintenanceWorkload(50, 2_000, 7, 0, 90)))
        .isEqualTo(all(new MaintenanceWorkload(50, 2_000, 7)));
  }

  @Test
  void aSkewedWorkloadIsSeededAndSendsItsShareToTheHotKeys() {
    MaintenanceWorkload workload = new MaintenanceWorkload(10_000, 50_000, 11, 1, 90);
    List<Change> changes = all(workload);

    assertThat(changes).isEqualTo(all(new MaintenanceWorkload(10_000, 50_000, 11, 1, 90)));
    assertThat(changes).isNotEqualTo(all(new MaintenanceWorkload(10_000, 50_000, 12, 1, 90)));
    HotKeys hot = new HotKeys(10_000, 1, 90, 11);
    long toHot =
        changes.subList(10_000, changes.size()).stream()
            .filter(c -> hot.isHot(c.orderId()))
            .count();
    MaintenanceWorkload.Counts counts = workload.counts();
    assertThat(counts.hotKeys()).isEqualTo(100);
    assertThat(counts.hotUpdates()).isEqualTo(toHot);
    assertThat(toHot).as("90%% of 50,000, give or take").isBetween(44_500L, 45_500L);
    assertThat(counts.records()).isEqualTo(60_000);
    assertThat(new MaintenanceWorkload(10, 10, 1).counts().hotKeys()).isZero();
  }

  @Test
  void aSkewedWorkloadLeavesTheStateItsChangesLeave() {
    MaintenanceWorkload workload = new MaintenanceWorkload(300, 30_000, 5, 1, 90);
    Map<Long, OrderRow> replayed = new HashMap<>();
    for (Change change : all(workload)) {
      if (change.after() == null) {
        replayed.remove(change.orderId());
      } else {
        replayed.put(change.orderId(), change.after());
      }
    }

    assertThat(workload.live()).isEqualTo(replayed);
    assertThat(workload.counts().deletes()).as("hot keys deleted and re-inserted").isPositive();
  }

  @Test
  void theLiveStateIsWhatTheChangesLeave() {
    MaintenanceWorkload workload = new MaintenanceWorkload(30, 3_000, 5);
    Map<Long, OrderRow> replayed = new HashMap<>();
    for (Change change : all(workload)) {
      if (change.after() == null) {
        replayed.remove(change.orderId());
      } else {
        replayed.put(change.orderId(), change.after());
      }
    }

    assertThat(workload.live()).isEqualTo(replayed);
  }

  @Test
  void itEndsAfterItsSize() {
    MaintenanceWorkload workload = new MaintenanceWorkload(2, 1, 1);
    all(workload);

    assertThatThrownBy(workload::next)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the workload has only 3 changes");
    assertThatThrownBy(() -> new MaintenanceWorkload(2, -1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("updates must be >= 0, got -1");
  }

  private static List<Change> all(MaintenanceWorkload workload) {
    List<Change> changes = new ArrayList<>();
    for (long i = 0; i < workload.size(); i++) {
      changes.add(workload.next());
    }
    return changes;
  }
}
