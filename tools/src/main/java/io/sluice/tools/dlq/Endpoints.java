package io.sluice.tools.dlq;

/**
 * Where the stack is, as the user gave it or the ready file said.
 *
 * @param schemaRegistryUrl null when neither gave one
 */
public record Endpoints(String bootstrapServers, String schemaRegistryUrl, String dlqTopic) {}
