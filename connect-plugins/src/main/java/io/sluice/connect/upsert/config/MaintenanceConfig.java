package io.sluice.connect.upsert.config;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The upsert sink's {@code maintenance.*} keys (group "Maintenance"), declared apart from {@link
 * UpsertSinkConfig} only to keep that table readable; they are part of the same ConfigDef.
 */
public final class MaintenanceConfig {
  static final String GROUP = "Maintenance";

  public static final String ENABLED_CONFIG = "maintenance.enabled";
  public static final String ENABLED_DOC =
      "Maintain the `_current` tables from inside the sink: merge batches into small partitions"
          + " at commit (maintenance.merge.max-bytes), rewrite the data files whose rows are"
          + " largely deleted and merge small ones (applying the deletes), expire snapshots,"
          + " remove orphan files, rewrite manifests. One task maintains each table: the task"
          + " assigned partition 0 of its topic, on a background thread (every task merges its"
          + " own batches). Turn it off only when another engine maintains the tables.";

  public static final String MERGE_MAX_BYTES_CONFIG = "maintenance.merge.max-bytes";
  public static final String MERGE_MAX_BYTES_DOC =
      "A batch whose partitions hold at most this many bytes of data files is merged into them"
          + " at commit (copy-on-write): their live rows and the batch's are written into new"
          + " data files that replace all their files, so those partitions hold no delete file"
          + " and read like a compacted table. Larger ones, and a merge that conflicts with"
          + " another writer's commit, are written with deletes by position (key-index.max-bytes;"
          + " equality deletes without a key index), which the rewrites below apply later. The cost is a read and a write of those partitions per commit"
          + " (docs/design.md#table-maintenance); 0 never merges.";
  static final long MERGE_MAX_BYTES_DEFAULT = 2L * 1024 * 1024;

  public static final String MERGE_MAX_ROWS_PER_KEY_CONFIG = "maintenance.merge.max-rows-per-key";
  public static final String MERGE_MAX_ROWS_PER_KEY_DOC =
      "A batch is merged only when its partitions hold at most this many rows for each key it"
          + " changes: past that, a merge rewrites many rows for every one it changes, and deletes"
          + " by position (applied later by the rewrites below) cost less. As the sink keeps up"
          + " with more records per commit, its batches grow and merging starts again. 0: no such"
          + " limit (maintenance.merge.max-bytes alone decides).";
  static final long MERGE_MAX_ROWS_PER_KEY_DEFAULT = 4;

  public static final String REWRITE_DELETE_FILES_CONFIG = "maintenance.rewrite.delete-files";
  public static final String REWRITE_DELETE_FILES_DOC =
      "A table partition whose equality deletes and partition-wide position deletes (deletes"
          + " that cannot be told apart by data file) number this many is rewritten whole: its"
          + " live rows into new data files, its dangling delete files removed. On format v2, a"
          + " data file that this many position-delete files name is rewritten on its own"
          + " (maintenance.rewrite.deleted-fraction). Each delete file slows every read of the"
          + " files it applies to (docs/design.md#table-maintenance).";
  static final int REWRITE_DELETE_FILES_DEFAULT = 4;
  public static final int REWRITE_SMALL_FILES_DEFAULT = 2 * REWRITE_DELETE_FILES_DEFAULT;

  public static final String REWRITE_SMALL_FILES_CONFIG = "maintenance.rewrite.small-files";
  public static final String REWRITE_SMALL_FILES_DOC =
      "Once a table partition has this many data files smaller than 3/4 of"
          + " maintenance.target-file-size-bytes, its smallest ones are merged: from the"
          + " smallest up, each joining while it holds at most twice the live bytes of those"
          + " before it, so a large file is never rewritten for the sake of a few small ones, and"
          + " at most twice this many in one pass. A partition of fewer than 700,000 live rows merges"
          + " them sooner, at this many x (1 + rows / 100,000) / 8 (at least 3; with the default,"
          + " 4 at 300,000 rows): a file costs a scan about what 10,000 rows do, whatever the"
          + " partition's size.";

  public static final String REWRITE_DELETED_FRACTION_CONFIG =
      "maintenance.rewrite.deleted-fraction";
  public static final String REWRITE_DELETED_FRACTION_DOC =
      "A data file is rewritten (its live rows into new files, its deletion vector or"
          + " position-delete files removed) once this fraction of its rows is deleted by"
          + " deletion vectors or position deletes that name it. A commit that would bring a"
          + " file it deletes from to this fraction copies the file's other live rows into its"
          + " own new files instead, so no file is left past it while the rewrites catch up. A"
          + " scan reads a file's deleted rows too, so it costs about 1 / (1 - fraction) of its"
          + " live rows (1.18x at 0.15); rewriting it writes (1 - fraction) / fraction bytes per"
          + " deleted byte (5.7 at 0.15). Lower reads faster and writes more"
          + " (docs/design.md#table-maintenance). Above 1, no file is rewritten or copied for its"
          + " deletes (another engine compacts the table).";
  static final double REWRITE_DELETED_FRACTION_DEFAULT = 0.15;

  public static final String TARGET_FILE_SIZE_BYTES_CONFIG = "maintenance.target-file-size-bytes";
  public static final String TARGET_FILE_SIZE_BYTES_DOC =
      "Size of the data files a rewrite writes (a partition's rows roll over into several files"
          + " of about this size).";

  public static final String SNAPSHOTS_KEEP_LAST_CONFIG = "maintenance.snapshots.keep-last";
  public static final String SNAPSHOTS_KEEP_LAST_DOC =
      "Snapshots always kept (time travel, readers of an older snapshot). Older ones expire once"
          + " they are also older than maintenance.snapshots.max-age-ms, and never while the"
          + " sink's offsets of some partition are found only in them; their unreferenced files"
          + " are deleted.";

  public static final String SNAPSHOTS_MAX_AGE_MS_CONFIG = "maintenance.snapshots.max-age-ms";
  public static final String SNAPSHOTS_MAX_AGE_MS_DOC =
      "Snapshots younger than this are always kept (besides the last"
          + " maintenance.snapshots.keep-last). A query running longer than this on an expired"
          + " snapshot can find its files gone.";

  public static final String SNAPSHOTS_OFFSETS_HORIZON_MS_CONFIG =
      "maintenance.snapshots.offsets-horizon-ms";
  public static final String SNAPSHOTS_OFFSETS_HORIZON_MS_DOC =
      "Snapshot expiry keeps the newest snapshot naming each partition the sink's offsets were"
          + " ever recorded for, under any connector name. The connector's own partitions of the"
          + " topics it subscribes to (topics, topics.regex) keep theirs for good: its tasks"
          + " record them again at least every maintenance.idle-commit.interval-ms while they"
          + " run, and a connector stopped for longer keeps its offsets. Every other entry (a"
          + " topic that left topics.regex, the connector's name before a rename, another"
          + " connector that wrote the table) keeps its snapshot until that snapshot is older"
          + " than this; without a bound they would keep every later snapshot for good. Past it"
          + " they are logged, counted by sluice_sink_offsets_retired_partitions, and their"
          + " offsets may expire with their snapshot. A task assigned such a partition again"
          + " then finds no offset for it in the table and starts from the consumer group's"
          + " committed offset (the sink commits to Connect only offsets the table holds, or"
          + " past records it skips) or, without one, from the consumer's auto.offset.reset"
          + " (earliest for Connect's sinks): it writes the records from there again, upserts"
          + " and deletes by key, so the rows converge once it has caught up. A topic that was"
          + " deleted but still matches topics.regex keeps its entries. At least 3 x"
          + " maintenance.idle-commit.interval-ms.";
  static final long SNAPSHOTS_OFFSETS_HORIZON_MS_DEFAULT = 7 * 86_400_000L;

  /** How many idle-commit intervals the horizon must span at least. */
  static final int OFFSETS_HORIZON_MIN_IDLE_INTERVALS = 3;

  public static final String ORPHANS_OLDER_THAN_MS_CONFIG = "maintenance.orphans.older-than-ms";
  public static final String ORPHANS_OLDER_THAN_MS_DOC =
      "Files under the table's data location that no snapshot references are deleted once they"
          + " are older than this; younger ones may belong to a commit still in progress (of any"
          + " writer), so keep it well above the longest write and commit.";

  public static final String ORPHANS_INTERVAL_MS_CONFIG = "maintenance.orphans.interval-ms";
  public static final String ORPHANS_INTERVAL_MS_DOC =
      "How often a maintained table's data location is listed for orphan files, besides each"
          + " task's first pass over it (only on storage"
          + " whose FileIO lists prefixes: HadoopFileIO, S3FileIO, ...).";

  public static final String MANIFESTS_MAX_COUNT_CONFIG = "maintenance.manifests.max-count";
  public static final String MANIFESTS_MAX_COUNT_DOC =
      "When the current snapshot has more data manifests than this, they are rewritten into as"
          + " few as their size allows (planning a read opens every manifest).";

  public static final String IDLE_COMMIT_INTERVAL_MS_CONFIG = "maintenance.idle-commit.interval-ms";
  public static final String IDLE_COMMIT_INTERVAL_MS_DOC =
      "A table the task has not committed for this long has its held partitions' offsets"
          + " committed again with the task's next commit round (a snapshot without files when"
          + " nothing else of it is pending), also while the task is busy with other tables."
          + " Snapshot expiry never removes the newest snapshot naming a partition, so without it"
          + " an idle partition would keep every snapshot committed to its table after its last"
          + " one.";

  public static final String CHECK_INTERVAL_MS_CONFIG = "maintenance.check.interval-ms";
  public static final String CHECK_INTERVAL_MS_DOC =
      "Maintenance is checked after each commit of the maintaining task and, for tables other"
          + " tasks write while its own partitions are idle, this often.";

  private MaintenanceConfig() {}

  /** The settings of {@code config}'s maintenance keys. */
  static MaintenanceSettings settings(AbstractConfig config) {
    return new MaintenanceSettings(
        config.getInt(REWRITE_DELETE_FILES_CONFIG),
        config.getInt(REWRITE_SMALL_FILES_CONFIG),
        config.getDouble(REWRITE_DELETED_FRACTION_CONFIG),
        config.getLong(TARGET_FILE_SIZE_BYTES_CONFIG),
        config.getInt(SNAPSHOTS_KEEP_LAST_CONFIG),
        config.getLong(SNAPSHOTS_MAX_AGE_MS_CONFIG),
        config.getLong(SNAPSHOTS_OFFSETS_HORIZON_MS_CONFIG),
        config.getLong(ORPHANS_OLDER_THAN_MS_CONFIG),
        config.getLong(ORPHANS_INTERVAL_MS_CONFIG),
        config.getInt(MANIFESTS_MAX_COUNT_CONFIG),
        config.getLong(CHECK_INTERVAL_MS_CONFIG));
  }

  static void define(ConfigDef def) {
    int order = 0;
    def.define(
        ENABLED_CONFIG,
        Type.BOOLEAN,
        true,
        Importance.MEDIUM,
        ENABLED_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Maintenance");
    def.define(
        MERGE_MAX_BYTES_CONFIG,
        Type.LONG,
        MERGE_MAX_BYTES_DEFAULT,
        Range.atLeast(0L),
        Importance.MEDIUM,
        MERGE_MAX_BYTES_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Merge at commit up to (bytes)");
    def.define(
        MERGE_MAX_ROWS_PER_KEY_CONFIG,
        Type.LONG,
        MERGE_MAX_ROWS_PER_KEY_DEFAULT,
        Range.atLeast(0L),
        Importance.LOW,
        MERGE_MAX_ROWS_PER_KEY_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Merge at commit up to (rows per key)");
    def.define(
        REWRITE_DELETE_FILES_CONFIG,
        Type.INT,
        REWRITE_DELETE_FILES_DEFAULT,
        Range.atLeast(1),
        Importance.MEDIUM,
        REWRITE_DELETE_FILES_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Rewrite at delete files");
    def.define(
        REWRITE_SMALL_FILES_CONFIG,
        Type.INT,
        REWRITE_SMALL_FILES_DEFAULT,
        Range.atLeast(2),
        Importance.LOW,
        REWRITE_SMALL_FILES_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Rewrite at small files");
    def.define(
        REWRITE_DELETED_FRACTION_CONFIG,
        Type.DOUBLE,
        REWRITE_DELETED_FRACTION_DEFAULT,
        Range.atLeast(0.01),
        Importance.MEDIUM,
        REWRITE_DELETED_FRACTION_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Rewrite a file at deleted fraction");
    def.define(
        TARGET_FILE_SIZE_BYTES_CONFIG,
        Type.LONG,
        128L * 1024 * 1024,
        Range.atLeast(1024L * 1024),
        Importance.LOW,
        TARGET_FILE_SIZE_BYTES_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Target file size (bytes)");
    def.define(
        SNAPSHOTS_KEEP_LAST_CONFIG,
        Type.INT,
        100,
        Range.atLeast(1),
        Importance.MEDIUM,
        SNAPSHOTS_KEEP_LAST_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Snapshots kept");
    def.define(
        SNAPSHOTS_MAX_AGE_MS_CONFIG,
        Type.LONG,
        900_000L,
        Range.atLeast(0L),
        Importance.MEDIUM,
        SNAPSHOTS_MAX_AGE_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Snapshot max age (ms)");
    def.define(
        SNAPSHOTS_OFFSETS_HORIZON_MS_CONFIG,
        Type.LONG,
        SNAPSHOTS_OFFSETS_HORIZON_MS_DEFAULT,
        Range.atLeast(1_000L),
        Importance.LOW,
        SNAPSHOTS_OFFSETS_HORIZON_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Offsets horizon (ms)");
    def.define(
        ORPHANS_OLDER_THAN_MS_CONFIG,
        Type.LONG,
        3 * 86_400_000L,
        Range.atLeast(3_600_000L),
        Importance.LOW,
        ORPHANS_OLDER_THAN_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Orphans older than (ms)");
    def.define(
        ORPHANS_INTERVAL_MS_CONFIG,
        Type.LONG,
        86_400_000L,
        Range.atLeast(60_000L),
        Importance.LOW,
        ORPHANS_INTERVAL_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Orphan search interval (ms)");
    def.define(
        MANIFESTS_MAX_COUNT_CONFIG,
        Type.INT,
        50,
        Range.atLeast(2),
        Importance.LOW,
        MANIFESTS_MAX_COUNT_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Manifests max count");
    def.define(
        IDLE_COMMIT_INTERVAL_MS_CONFIG,
        Type.LONG,
        300_000L,
        Range.atLeast(1_000L),
        Importance.LOW,
        IDLE_COMMIT_INTERVAL_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Idle commit interval (ms)");
    def.define(
        CHECK_INTERVAL_MS_CONFIG,
        Type.LONG,
        60_000L,
        Range.atLeast(1_000L),
        Importance.LOW,
        CHECK_INTERVAL_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Check interval (ms)");
  }
}
