package io.sluice.bench.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.stack.workload.OrderRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChangeStreamTest {
  @Test
  void theSameSeedGivesTheSameChanges() {
    assertThat(take(new ChangeStream(7, 50, 0.1), 500))
        .isEqualTo(take(new ChangeStream(7, 50, 0.1), 500));
    assertThat(take(new ChangeStream(7, 50, 0.1), 500))
        .isNotEqualTo(take(new ChangeStream(8, 50, 0.1), 500));
  }

  @Test
  void changesFollowEachKeysLifeAndLeaveTheStateTheyDescribe() {
    ChangeStream stream = new ChangeStream(1, 20, 0.1);
    Map<Long, OrderRow> replayed = new HashMap<>();
    for (int i = 0; i < 2_000; i++) {
      ChangeStream.Change change = stream.next();
      OrderRow current = replayed.get(change.orderId());
      switch (change.op()) {
        case "c" -> {
          assertThat(current).as("c of an absent key").isNull();
          assertThat(change.before()).isNull();
          replayed.put(change.orderId(), change.after());
        }
        case "u" -> {
          assertThat(change.before()).as("u carries the current row").isEqualTo(current);
          replayed.put(change.orderId(), change.after());
        }
        case "d" -> {
          assertThat(change.before()).as("d carries the current row").isEqualTo(current);
          assertThat(change.after()).isNull();
          replayed.remove(change.orderId());
        }
        default -> throw new AssertionError("unexpected op " + change.op());
      }
      assertThat(change.orderId()).isBetween(1L, 20L);
    }
    assertThat(stream.live()).isEqualTo(replayed);
    assertThat(stream.creates() + stream.updates() + stream.deletes())
        .isEqualTo(stream.events())
        .isEqualTo(2_000);
    assertThat(stream.deletes())
        .as("about a tenth of the changes to live keys")
        .isBetween(100L, 300L);
    assertThat(stream.creates()).isGreaterThan(stream.deletes());
  }

  @Test
  void everyChangeHasItsOwnEventId() {
    ChangeStream stream = new ChangeStream(3, 5, 0.2);
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      ChangeStream.Change change = stream.next();
      if (change.after() != null) {
        ids.add(change.after().eventId());
      }
    }
    assertThat(ids).doesNotHaveDuplicates().isSorted();
  }

  @Test
  void aChangeToAGivenKeyCreatesItWhenAbsentAndOtherwiseChangesIt() {
    ChangeStream stream = new ChangeStream(1, 5, 0.1);

    ChangeStream.Change first = stream.next(3);
    ChangeStream.Change second = stream.next(3);

    assertThat(first.op()).isEqualTo("c");
    assertThat(first.orderId()).isEqualTo(3);
    assertThat(second.op()).isIn("u", "d");
    assertThat(second.before()).as("the row the create left").isEqualTo(first.after());
    assertThatThrownBy(() -> stream.next(6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("order id must be in [1, 5], got 6");
  }

  @Test
  void badSettingsAreRefused() {
    assertThatThrownBy(() -> new ChangeStream(1, 0, 0.1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("keys must be at least 1, got 0");
    assertThatThrownBy(() -> new ChangeStream(1, 10, 1.0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("delete share must be in [0, 1), got 1.0");
  }

  private static List<ChangeStream.Change> take(ChangeStream stream, int n) {
    List<ChangeStream.Change> changes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      changes.add(stream.next());
    }
    return changes;
  }
}
