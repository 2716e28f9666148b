package io.sluice.schema.registry;

/** A (subject, version) pair, as {@code GET /schemas/ids/{id}/versions} lists them. */
public record SubjectVersion(String subject, int version) {}
