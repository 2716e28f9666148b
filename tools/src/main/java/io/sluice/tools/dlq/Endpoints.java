package io.sluice.tools.dlq;

/**
 * Where the stack is, as the user gave it or the ready file said, and which DLQ topic to act on.
 *
 * @param schemaRegistryUrl null when neither gave one
 */
record Endpoints(String bootstrapServers, String schemaRegistryUrl, DlqTopicChoice dlq) {}
