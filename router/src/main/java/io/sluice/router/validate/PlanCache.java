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

  RecordPlan find(String topic, int valueId, boolean keyed, int keyId) {
    TopicPlans plans = byTopic.get(topic);
    return plans == null ? null : plans.find(valueId, keyed, keyId);
  }

  void add(String topic, RecordPlan plan) {
    if (byTopic.size() >= MAX_TOPICS && !byTopic.containsKey(topic)) {
      byTopic.clear();
    }
    byTopic.computeIfAbsent(topic, t -> new TopicPlans()).add(plan);
  }

  /** Copy-on-write array: lookups read one volatile field and scan a few entries. */
  private static final class TopicPlans {
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
