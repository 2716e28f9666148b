package io.sluice.schema.registry;

import org.apache.avro.Schema;

/** A schema as registered under a subject: its global id, its version and the schema. */
public record RegisteredSchema(String subject, int version, int id, Schema schema) {}
