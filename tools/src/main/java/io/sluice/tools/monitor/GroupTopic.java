package io.sluice.tools.monitor;

/** A consumer group and one topic it committed offsets for: the key of a lag value. */
public record GroupTopic(String group, String topic) {}
