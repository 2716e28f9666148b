package io.sluice.router.config;

/** What the router does with a record whose value is null. */
public enum TombstoneMode {
  /** Forward it to the clean topic (downstream deletes by key). */
  PASS,
  /** Drop it. */
  DROP
}
