package io.sluice.schema.server;

/** One record of the registry's {@code _schemas} topic. */
sealed interface LogEntry {

  /** Version {@code version} of {@code subject} is the schema with global id {@code id}. */
  record SchemaEntry(String subject, int version, int id, String schema) implements LogEntry {}

  /** The compatibility level of {@code subject}, or the global one when subject is null. */
  record ConfigEntry(String subject, CompatibilityLevel level) implements LogEntry {}
}
