package io.sluice.connect.upsert.config;

/**
 * Which batches the upsert sink merges into their partitions at commit ({@code MergeOnCommit}).
 *
 * @param maxBytes the most bytes of data files a batch may merge; 0 never merges
 * @param maxRowsPerKey the most rows of data files a batch may merge per key it changes; 0 for no
 *     such limit
 */
public record MergeLimits(long maxBytes, long maxRowsPerKey) {}
