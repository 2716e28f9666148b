package io.sluice.tools.dlq.handle;

/** What happened to one DLQ record in a replay or repair run. */
public enum Outcome {
  /** Produced, with its ledger record, in one transaction. */
  PRODUCED,
  /** Dry run: would have been produced. */
  WOULD_PRODUCE,
  /** The ledger says it was handled before: nothing done. */
  ALREADY_HANDLED,
  /** A newer event for the key follows it: refused (override with --force). */
  REFUSED_STALE,
  /** It cannot be replayed or repaired (unreadable, payload or schema problem). */
  FAILED
}
