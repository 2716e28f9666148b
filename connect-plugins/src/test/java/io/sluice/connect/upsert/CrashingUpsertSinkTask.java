package io.sluice.connect.upsert;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The upsert sink task with its {@link TaskHooks} armed by two keys of its own, which it takes out
 * of the configuration before the sink sees it:
 *
 * <ul>
 *   <li>{@value #FAIL_AFTER_COMMITS}: fails right after the N-th commit round, before Connect can
 *       commit the offsets of that batch;
 *   <li>{@value #FAIL_AFTER_DLQ_WRITES}: fails after the N-th DLQ flush that wrote records, before
 *       the Iceberg commit that would cover them, and before every later one (Connect's close of
 *       the failed task asks for one more commit, which must not land).
 * </ul>
 *
 * Unset or 0: never. Connect makes it through {@link CrashingUpsertSinkConnector}.
 */
public class CrashingUpsertSinkTask extends UpsertSinkTask {
  public static final String FAIL_AFTER_COMMITS = "sluice.test.fail.after.commits";
  public static final String FAIL_AFTER_DLQ_WRITES = "sluice.test.fail.after.dlq.writes";
  static final List<String> HOOK_KEYS = List.of(FAIL_AFTER_COMMITS, FAIL_AFTER_DLQ_WRITES);

  private final Crashes crashes;

  public CrashingUpsertSinkTask() {
    this(TaskRuntime.SYSTEM);
  }

  public CrashingUpsertSinkTask(TaskRuntime runtime) {
    this(runtime, new Crashes());
  }

  private CrashingUpsertSinkTask(TaskRuntime runtime, Crashes crashes) {
    super(runtime, crashes);
    this.crashes = crashes;
  }

  @Override
  public void start(Map<String, String> props) {
    crashes.failAfterCommits = count(props.get(FAIL_AFTER_COMMITS));
    crashes.failAfterDlqWrites = count(props.get(FAIL_AFTER_DLQ_WRITES));
    super.start(withoutHooks(props));
  }

  /** The configuration without the hook keys: what the sink itself validates. */
  static Map<String, String> withoutHooks(Map<String, String> props) {
    Map<String, String> sink = new HashMap<>(props);
    sink.keySet().removeAll(HOOK_KEYS);
    return sink;
  }

  private static int count(String value) {
    return value == null ? 0 : Integer.parseInt(value);
  }

  private static final class Crashes implements TaskHooks {
    int failAfterCommits;
    int failAfterDlqWrites;
    private int commits;
    private int flushesWithRecords;

    @Override
    public void committed() {
      commits++;
      if (failAfterCommits > 0 && commits >= failAfterCommits) {
        throw new TestHookException(
            "test hook " + FAIL_AFTER_COMMITS + ": failing right after Iceberg commit " + commits);
      }
    }

    @Override
    public void dlqFlushed(boolean wroteRecords) {
      if (wroteRecords) {
        flushesWithRecords++;
      }
      if (failAfterDlqWrites > 0 && flushesWithRecords >= failAfterDlqWrites) {
        throw new TestHookException(
            "test hook "
                + FAIL_AFTER_DLQ_WRITES
                + ": failing after DLQ flush "
                + flushesWithRecords
                + ", before the Iceberg commit");
      }
    }
  }
}
