package io.sluice.tools.reconcile;

/** A canonical row line and the primary key it sorts by. */
public record KeyedLine(SortKey key, String line) {}
