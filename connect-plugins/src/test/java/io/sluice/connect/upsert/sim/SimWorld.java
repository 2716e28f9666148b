package io.sluice.connect.upsert.sim;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The catalog's state of one simulated run: which metadata file each table points at, the object
 * store, and the faults armed for the next commits of the sink's catalogs. Catalogs find their
 * world by the {@value #WORLD_PROPERTY} catalog property ({@link SimCatalog}).
 */
final class SimWorld implements AutoCloseable {
  static final String WORLD_PROPERTY = "sim.world";

  /** Set on the sink's catalogs: their commits take the armed faults. */
  static final String FAULTY_PROPERTY = "sim.faulty";

  private static final Map<String, SimWorld> WORLDS = new ConcurrentHashMap<>();
  private static final AtomicInteger NEXT = new AtomicInteger();

  /** What happens to a commit of the sink. */
  enum CommitFault {
    /** Applied; the reply is lost as a REST catalog loses it (RESTException). */
    LOST_REPLY_REST,
    /** Applied; the reply is lost as a JDBC catalog loses it (UncheckedSQLException). */
    LOST_REPLY_JDBC,
    /** Applied; CommitStateUnknownException. */
    UNKNOWN_APPLIED,
    /** Not applied; CommitStateUnknownException. */
    UNKNOWN_NOT_APPLIED,
    /** Not applied; the catalog answers with a server error (RESTException). */
    REFUSED_REST,
    /** Another engine's compaction commits between the writer's refresh and its commit. */
    CONCURRENT_COMPACTION,
    /**
     * A sink task commits new records of the table between the writer's refresh and its commit:
     * another task, or the same task when the writer is its maintenance.
     */
    CONCURRENT_SINK_COMMIT,
    /**
     * Another engine's merge-on-read UPDATE commits between the writer's refresh and its commit: a
     * delete by position of rows of keys of the committing task's pending batch, and new rows of
     * those keys.
     */
    CONCURRENT_UPDATE,
    /**
     * Another engine's upsert by equality deletes (Flink) commits between the writer's refresh and
     * its commit, on keys of the committing task's pending batch.
     */
    CONCURRENT_EQUALITY_UPSERT
  }

  final String id;
  final SimFileIO io;
  private final Map<TableIdentifier, String> pointers = new HashMap<>();
  private final Deque<CommitFault> armed = new ArrayDeque<>();
  private final List<String> events;
  private Consumer<TableIdentifier> concurrentWriter = id -> {};
  private Consumer<TableIdentifier> concurrentSink = id -> {};
  private java.util.function.BiConsumer<TableIdentifier, CommitFault> concurrentDml = (id, f) -> {};

  SimWorld(LongSupplier wallClock, List<String> events) {
    this.id = "w" + NEXT.incrementAndGet();
    this.io = new SimFileIO(wallClock);
    this.events = events;
    WORLDS.put(id, this);
  }

  static SimWorld of(String id) {
    SimWorld world = WORLDS.get(id);
    if (world == null) {
      throw new IllegalStateException("no simulated world " + id);
    }
    return world;
  }

  String warehouse() {
    return "sim://" + id + "/warehouse";
  }

  void onConcurrentCommit(Consumer<TableIdentifier> writer) {
    this.concurrentWriter = writer;
  }

  void onConcurrentSinkCommit(Consumer<TableIdentifier> sink) {
    this.concurrentSink = sink;
  }

  void onConcurrentDml(java.util.function.BiConsumer<TableIdentifier, CommitFault> dml) {
    this.concurrentDml = dml;
  }

  void runConcurrentDml(TableIdentifier table, CommitFault fault) {
    concurrentDml.accept(table, fault);
  }

  void runConcurrentSinkCommit(TableIdentifier table) {
    concurrentSink.accept(table);
  }

  synchronized void arm(CommitFault fault) {
    armed.add(fault);
  }

  synchronized void disarm() {
    armed.clear();
  }

  synchronized CommitFault nextFault() {
    return armed.poll();
  }

  void runConcurrentWriter(TableIdentifier table) {
    concurrentWriter.accept(table);
  }

  synchronized String pointer(TableIdentifier table) {
    return pointers.get(table);
  }

  synchronized List<TableIdentifier> tables() {
    return List.copyOf(pointers.keySet());
  }

  /** Compare-and-set of a table's metadata location; false when {@code expected} is stale. */
  synchronized boolean swap(TableIdentifier table, String expected, String next) {
    String current = pointers.get(table);
    if (current == null ? expected != null : !current.equals(expected)) {
      return false;
    }
    pointers.put(table, next);
    return true;
  }

  synchronized void drop(TableIdentifier table) {
    pointers.remove(table);
  }

  void event(String what) {
    events.add(what);
  }

  @Override
  public void close() {
    WORLDS.remove(id);
  }
}
