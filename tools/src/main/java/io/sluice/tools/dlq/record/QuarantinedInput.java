package io.sluice.tools.dlq.record;

import java.util.ArrayList;
import java.util.List;

/**
 * One quarantined input and the DLQ records that stand for it: its first record, which the tools
 * show and act on, and the later copies a zombie sink task wrote (usually none).
 *
 * @param identity the input; null when the record could not be read (it is an input of its own)
 * @param first the first DLQ record of the input
 * @param laterCopies its other DLQ records, in DLQ order
 */
public record QuarantinedInput(InputIdentity identity, DlqEntry first, List<DlqEntry> laterCopies) {

  public QuarantinedInput {
    laterCopies = List.copyOf(laterCopies);
  }

  /** An input with one DLQ record (or an envelope from a file, or an unreadable record). */
  public static QuarantinedInput single(DlqEntry entry) {
    return new QuarantinedInput(
        entry.readable() ? InputIdentity.of(entry) : null, entry, List.of());
  }

  /** How many DLQ records stand for the input: 1, or more when a zombie task wrote it again. */
  public int copies() {
    return 1 + laterCopies.size();
  }

  /** Its first record, then the later copies. */
  public List<DlqEntry> records() {
    List<DlqEntry> all = new ArrayList<>(copies());
    all.add(first);
    all.addAll(laterCopies);
    return all;
  }

  /** True when {@code entry} is the first record of this input (compared by identity). */
  public boolean isFirst(DlqEntry entry) {
    return first == entry;
  }
}
