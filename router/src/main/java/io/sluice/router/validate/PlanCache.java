package io.sluice.router.validate;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plans by topic and (value schema id, key schema id). A plan is only stored once both ids were
 * checked against the topic's subjects, so a hit skips every registry call. Bounded: at most {@link
 * #PLANS_PER_TOPIC} plans per topic (oldest dropped first) and {@link #MAX_TOPICS} topics (all
 * dropped when exceeded; they are rebuilt from the registry client's cache).
 */
final class PlanCache {
  static final int PLANS_PER_TOPIC = 32;
  static final int MAX_TOPICS = 10_000;

  private final ConcurrentHashMap<String, TopicPlans> byTopic = new ConcurrentHashMap<>();

  /**
   * The plans of {@code topic}, shared by every thread. A caller may keep the result: when the
   * cache drops the topic, its plans stay valid for whoever holds them.
   */
  TopicPlans forTopic(String topic) {
    TopicPlans plans = byTopic.get(topic);
    if (plans != null) {
      return plans;
    }
    if (byTopic.size() >= MAX_TOPICS) {
      byTopic.clear();
    }
    return byTopic.computeIfAbsent(topic, t -> new TopicPlans());
  }

  /** Copy-on-write array: lookups read one volatile field and scan a few entries. */
  static final class TopicPlans {
    private volatile RecordPlan[] plans = new RecordPlan[0];

    RecordPlan find(int valueId, boolean keyed, int keyId) {
      for (RecordPlan plan : plans) {
        if (plan.matches(valueId, keyed, keyId)) {
          return plan;
        }
      }
      return null;
    }

    synchronized void add(RecordPlan plan) {
      if (find(plan.valueSchemaId, plan.keyed, plan.keySchemaId) != null) {
        return;
      }
      RecordPlan[] current = plans;
      RecordPlan[] next;
      if (current.length < PLANS_PER_TOPIC) {
        next = Arrays.copyOf(current, current.length + 1);
      } else {
        next = Arrays.copyOfRange(current, 1, current.length + 1);
      }
      next[next.length - 1] = plan;
      plans = next;
    }
  }
}
