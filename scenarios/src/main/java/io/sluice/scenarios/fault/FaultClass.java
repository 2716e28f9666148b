package io.sluice.scenarios.fault;

import static io.sluice.scenarios.fault.FaultCheck.CLIENTS_RECOVERED_WITHOUT_RESTART;
import static io.sluice.scenarios.fault.FaultCheck.COMPONENT_RECOVERED;
import static io.sluice.scenarios.fault.FaultCheck.EACH_POISON_QUARANTINED_ONCE;
import static io.sluice.scenarios.fault.FaultCheck.EARLIER_ROWS_KEEP_NULL;
import static io.sluice.scenarios.fault.FaultCheck.EVERY_INPUT_IN_CLEAN_OR_DLQ_ONCE;
import static io.sluice.scenarios.fault.FaultCheck.EVERY_TASK_OFFSET_HELD_IN_ICEBERG;
import static io.sluice.scenarios.fault.FaultCheck.FAULTS_INJECTED;
import static io.sluice.scenarios.fault.FaultCheck.FINAL_EVENT_ID_AUDIT_CONSISTENT;
import static io.sluice.scenarios.fault.FaultCheck.FINAL_EVERY_TABLE_EQUAL;
import static io.sluice.scenarios.fault.FaultCheck.FINAL_SNAPSHOT_DIFF_ZERO;
import static io.sluice.scenarios.fault.FaultCheck.KILLED_BETWEEN_ICEBERG_AND_CONNECT_COMMIT;
import static io.sluice.scenarios.fault.FaultCheck.NEW_COLUMN_REACHED_ICEBERG_WITH_VALUES;
import static io.sluice.scenarios.fault.FaultCheck.NO_COMMIT_FENCED_BY_MISTAKE;
import static io.sluice.scenarios.fault.FaultCheck.NO_DUPLICATE_KEY;
import static io.sluice.scenarios.fault.FaultCheck.NO_RESURRECTED_ROW;
import static io.sluice.scenarios.fault.FaultCheck.POST_FAULT_EVENT_FLOW_CONTINUED;
import static io.sluice.scenarios.fault.FaultCheck.ROUTER_REGISTRY_RETRIES_COUNTED;
import static io.sluice.scenarios.fault.FaultCheck.SCALED_OUT;
import static io.sluice.scenarios.fault.FaultCheck.ZERO_RECORDS_QUARANTINED;

import io.sluice.stack.ProcessScale;
import io.sluice.stack.ProcessStack;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The failure classes that fault one process of the process stack under a steady workload: which
 * component, how, and which checks the class proves beyond the final ones every class shares.
 */
public enum FaultClass {
  ROUTER_CRASH(
      "router-crash",
      ProcessStack.ROUTER,
      Injection.SIGKILL,
      true,
      "SIGKILL of the router's JVM (an open Kafka transaction left behind) while rows and poison"
          + " records stream in; the supervisor starts it again",
      EnumSet.of(EACH_POISON_QUARANTINED_ONCE, EVERY_INPUT_IN_CLEAN_OR_DLQ_ONCE)),
  SINK_CRASH(
      "sink-crash",
      ProcessStack.CONNECT,
      Injection.SIGKILL_AFTER_ICEBERG_COMMIT,
      false,
      "SIGKILL of the Connect worker right after the upsert sink committed to Iceberg (before"
          + " Connect commits the same offsets to Kafka, when it lands in time); the supervisor"
          + " starts it again",
      EnumSet.of(ZERO_RECORDS_QUARANTINED, KILLED_BETWEEN_ICEBERG_AND_CONNECT_COMMIT)),
  CAPTURE_RESTART(
      "capture-restart",
      ProcessStack.CAPTURE,
      Injection.SIGKILL,
      false,
      "SIGKILL of the capture's JVM mid-binlog (its at-least-once position: events re-sent after"
          + " the restart); the supervisor starts it again",
      EnumSet.of(ZERO_RECORDS_QUARANTINED)),
  BROKER_RESTART(
      "broker-restart",
      ProcessStack.BROKER,
      Injection.SIGKILL,
      false,
      "SIGKILL of the broker under load (every connection of every client drops); the supervisor"
          + " starts it again on the same log dir and ports, and no other component is restarted",
      EnumSet.of(ZERO_RECORDS_QUARANTINED, CLIENTS_RECOVERED_WITHOUT_RESTART)),
  REGISTRY_OUTAGE(
      "registry-outage",
      ProcessStack.REGISTRY,
      Injection.OUTAGE,
      false,
      "the schema registry stopped (SIGTERM) for the outage under load, with change events of a"
          + " schema version registered just before it (the same fields, a new id: the router"
          + " must look it up) on the main topic; then started again",
      EnumSet.of(
          ZERO_RECORDS_QUARANTINED,
          ROUTER_REGISTRY_RETRIES_COUNTED,
          CLIENTS_RECOVERED_WITHOUT_RESTART)),
  STACK_CRASH(
      "stack-crash",
      "stack",
      Injection.CRASH,
      false,
      "a machine crash: SIGKILL of every process of the stack at once (broker, registry,"
          + " mariadbd, router, Connect worker, capture, monitor), then each started again in"
          + " order by the supervisor (sluice stack crash)",
      EnumSet.of(ZERO_RECORDS_QUARANTINED)),
  SCHEMA_CHANGE(
      "schema-change",
      "source schema",
      Injection.SCHEMA_CHANGE,
      false,
      "ALTER TABLE cdc_lab.orders ADD COLUMN (nullable) under load, values given to it in the rows"
          + " of the next two rounds, then ALTER TABLE ... DROP COLUMN under load",
      EnumSet.of(
          NEW_COLUMN_REACHED_ICEBERG_WITH_VALUES,
          EARLIER_ROWS_KEEP_NULL,
          ZERO_RECORDS_QUARANTINED,
          CLIENTS_RECOVERED_WITHOUT_RESTART)),
  DELETE_STORM(
      "delete-storm",
      "none",
      Injection.NONE,
      false,
      "no process fault: a workload of deletes (each a delete event and a tombstone), updates and"
          + " re-inserts of the deleted keys, round after round on one pool of keys",
      EnumSet.of(ZERO_RECORDS_QUARANTINED, NO_RESURRECTED_ROW)),
  SCALE_OUT(
      "scale-out",
      ProcessStack.CONNECT,
      Injection.SIGKILL,
      true,
      "SIGKILL of one of two Connect workers (each sink with tasks.max=3, spread over both) while"
          + " rows and poison records stream in through two router instances; the supervisor"
          + " starts it again (needs `sluice up --processes --routers 2 --connect-workers 2"
          + " --sink-tasks 3`)",
      EnumSet.of(
          EACH_POISON_QUARANTINED_ONCE,
          EVERY_INPUT_IN_CLEAN_OR_DLQ_ONCE,
          SCALED_OUT,
          EVERY_TASK_OFFSET_HELD_IN_ICEBERG,
          NO_COMMIT_FENCED_BY_MISTAKE));

  /** The scale the process stack needs for {@link #SCALE_OUT}. */
  public static final ProcessScale SCALE_OUT_STACK = new ProcessScale(2, 2, 3);

  /** The component name of {@link #STACK_CRASH}: every component (the string in its constant). */
  public static final String STACK = "stack";

  /** How the component is faulted. */
  public enum Injection {
    /** SIGKILL at a point of the workload, then a start. */
    SIGKILL,
    /** SIGKILL as soon as the upsert sink's table has a new snapshot, then a start. */
    SIGKILL_AFTER_ICEBERG_COMMIT,
    /** A clean stop, the outage, then a start. */
    OUTAGE,
    /** Every component SIGKILLed at once, then all started again ({@code sluice stack crash}). */
    CRASH,
    /** No process fault: the workload is the fault ({@link FaultClass#DELETE_STORM}). */
    NONE,
    /** No process fault: a column added, then dropped, in the source table under load. */
    SCHEMA_CHANGE
  }

  /** Checks every class proves: the lake equals the source after the faults. */
  static final Set<FaultCheck> COMMON =
      EnumSet.of(
          FAULTS_INJECTED,
          COMPONENT_RECOVERED,
          NO_DUPLICATE_KEY,
          POST_FAULT_EVENT_FLOW_CONTINUED,
          FINAL_SNAPSHOT_DIFF_ZERO,
          FINAL_EVENT_ID_AUDIT_CONSISTENT,
          FINAL_EVERY_TABLE_EQUAL);

  private final String name;
  private final String component;
  private final Injection injection;
  private final boolean poison;
  private final String mechanism;
  private final Set<FaultCheck> own;

  FaultClass(
      String name,
      String component,
      Injection injection,
      boolean poison,
      String mechanism,
      Set<FaultCheck> own) {
    this.name = name;
    this.component = component;
    this.injection = injection;
    this.poison = poison;
    this.mechanism = mechanism;
    this.own = own;
  }

  /** The {@code --failure} name. */
  public String failureName() {
    return name;
  }

  /** The component faulted, as the control API names it. */
  public String component() {
    return component;
  }

  public Injection injection() {
    return injection;
  }

  /** Whether poison records are mixed into the workload. */
  public boolean poison() {
    return poison;
  }

  /** The report's {@code fault.mechanism}. */
  public String mechanism() {
    return mechanism;
  }

  /** Every check this class reports. */
  public Set<FaultCheck> checks() {
    Set<FaultCheck> all = EnumSet.copyOf(COMMON);
    if (injection == Injection.NONE || injection == Injection.SCHEMA_CHANGE) {
      all.removeAll(EnumSet.of(FAULTS_INJECTED, COMPONENT_RECOVERED));
    }
    all.addAll(own);
    return all;
  }

  public static Optional<FaultClass> named(String name) {
    return Arrays.stream(values()).filter(c -> c.name.equals(name)).findFirst();
  }

  /** The {@code --failure} names, in declaration order. */
  public static List<String> names() {
    return Arrays.stream(values()).map(FaultClass::failureName).toList();
  }
}
