package io.sluice.router.validate;

/**
 * {@link RecordValidator} bound to one topic: keeps the topic's plans and its own capture slots at
 * hand, so a record costs no map or thread-local lookup before its bytes are scanned. Not
 * thread-safe: one per processor (a Kafka Streams task runs on one thread at a time).
 */
public final class TopicValidator {
  private final RecordValidator validator;
  private final String topic;
  private final PlanCache.TopicPlans plans;
  private final CaptureSlots slots = new CaptureSlots();

  TopicValidator(RecordValidator validator, String topic, PlanCache.TopicPlans plans) {
    this.validator = validator;
    this.topic = topic;
    this.plans = plans;
  }

  public String topic() {
    return topic;
  }

  /**
   * Validates one record of the topic, as {@link RecordValidator#validate} does.
   *
   * @throws io.sluice.schema.registry.RegistryUnavailableException when the registry could not
   *     answer (retry later; the record is not poison)
   */
  public ValidationResult validate(byte[] key, byte[] value) {
    return validator.validate(topic, plans, slots, key, value);
  }

  /**
   * As {@link #validate} when the record's schema ids were resolved before (by any thread); null
   * when the registry would have to be asked first. Never calls the registry.
   */
  public ValidationResult validateIfCached(byte[] key, byte[] value) {
    return validator.validateIfCached(topic, plans, slots, key, value);
  }
}
