package io.sluice.scenarios;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The outcome of every check of a scenario: false until a step proves it. Immutable; written as the
 * report's {@code checks} object, {key: boolean} in the enum's order.
 *
 * @param <C> the scenario's enum of checks
 */
public final class Checks<C extends Enum<C> & Check> {
  private final Map<C, Boolean> outcomes;

  private Checks(Map<C, Boolean> outcomes) {
    this.outcomes = Collections.unmodifiableMap(outcomes);
  }

  /** Every check of {@code type}, none proved yet. */
  public static <C extends Enum<C> & Check> Checks<C> none(Class<C> type) {
    Map<C, Boolean> outcomes = new EnumMap<>(type);
    for (C check : type.getEnumConstants()) {
      outcomes.put(check, false);
    }
    return new Checks<>(outcomes);
  }

  /**
   * Only {@code subset} of {@code type}'s checks, none proved yet: for scenarios that share one
   * enum and each report their own checks.
   */
  public static <C extends Enum<C> & Check> Checks<C> of(Class<C> type, Set<C> subset) {
    Map<C, Boolean> outcomes = new EnumMap<>(type);
    subset.forEach(check -> outcomes.put(check, false));
    return new Checks<>(outcomes);
  }

  /**
   * These checks with the outcomes in {@code found} laid over them; an outcome of a check these do
   * not hold is left out.
   */
  public Checks<C> with(Map<C, Boolean> found) {
    Map<C, Boolean> next = new EnumMap<>(outcomes);
    found.forEach(
        (check, held) -> {
          if (next.containsKey(check)) {
            next.put(check, held);
          }
        });
    return new Checks<>(next);
  }

  public boolean holds(C check) {
    return Boolean.TRUE.equals(outcomes.get(check));
  }

  /** True when every check holds. */
  public boolean allHold() {
    return outcomes.values().stream().allMatch(Boolean::booleanValue);
  }

  public long heldCount() {
    return outcomes.values().stream().filter(Boolean::booleanValue).count();
  }

  public int size() {
    return outcomes.size();
  }

  /** The outcomes by report key, in report order. */
  @JsonValue
  public Map<String, Boolean> byKey() {
    Map<String, Boolean> byKey = new LinkedHashMap<>();
    outcomes.forEach((check, held) -> byKey.put(check.key(), held));
    return byKey;
  }
}
