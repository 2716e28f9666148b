package io.sluice.tools.dlq.handle;

/** What happened to one input (or one DLQ record of it) in a replay or repair run. */
public enum Outcome {
  /** Produced, with its ledger record, in one transaction. */
  PRODUCED,
  /** Dry run: would have been produced. */
  WOULD_PRODUCE,
  /** The ledger says it was handled before: nothing done. */
  ALREADY_HANDLED,
  /** A newer event for the key follows it: refused (override with --force). */
  REFUSED_STALE,
  /**
   * A later DLQ record of an input whose first record stands for it (a zombie sink task wrote the
   * input twice): skipped, the input is handled once.
   */
  LATER_COPY,
  /** It cannot be replayed or repaired (unreadable, payload or schema problem). */
  FAILED
}
