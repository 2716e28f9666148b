package io.sluice.scenarios.fault;

import io.sluice.scenarios.ChangeEvent;
import io.sluice.scenarios.RetypedSchemas;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.scenarios.ScenarioRows;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.schema.Subjects;
import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.stack.workload.OrderRow;
import java.sql.Connection;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/** registry-outage's records: change events of a schema version the router has not seen. */
final class UnseenSchemaEvents {
  /** Events of the unseen schema version per outage. */
  private static final int UNSEEN_EVENTS = 3;

  private final ScenarioStack stack;
  private final FaultScenario.Settings settings;

  UnseenSchemaEvents(ScenarioStack stack, FaultScenario.Settings settings) {
    this.stack = stack;
    this.settings = settings;
  }

  /**
   * Registers a version of the main topic's value schema the router has not seen (the latest with a
   * doc naming the fault: the same fields, a new id), inserts rows of the run's seed in the source
   * and builds their insert events encoded with it, as capture would send them: the router must
   * look the id up while the registry is down. Capture sends the same rows too (with the id it
   * knows): the lake gets each row twice, with the same values.
   */
  List<ChangeEvent> build(int fault) throws Exception {
    String subject = Subjects.value(ScenarioStack.MAIN_TOPIC);
    RegisteredSchema latest = stack.registry().latest(subject);
    RegisteredSchema key = stack.registry().latest(Subjects.key(ScenarioStack.MAIN_TOPIC));
    stack
        .registry()
        .register(
            subject,
            RetypedSchemas.reverted(
                latest.schema(),
                "amount_cents",
                "registry-outage fault " + fault + " of seed " + settings.run().seed()));
    RegisteredSchema unseen = stack.registry().latest(subject);
    if (unseen.id() == latest.id()) {
      throw new ScenarioFailure(
          "the registry answered the known id " + latest.id() + " for the new version");
    }
    List<ChangeEvent> events = new ArrayList<>();
    try (Connection c = stack.connect()) {
      for (int i = 1; i <= UNSEEN_EVENTS; i++) {
        OrderRow row = settings.run().rowAfterBaseline((fault - 1) * UNSEEN_EVENTS + i);
        ScenarioRows.insert(c, row);
        events.add(
            ChangeEvent.insert(
                ScenarioStack.MAIN_TOPIC,
                unseen,
                key,
                ScenarioRows.columns(row),
                Clock.systemUTC()));
      }
    }
    return events;
  }

  void produce(List<ChangeEvent> events) throws Exception {
    try (KafkaProducer<byte[], byte[]> producer = stack.producer("sluice-verify-registry-outage")) {
      for (ChangeEvent e : events) {
        producer.send(new ProducerRecord<>(ScenarioStack.MAIN_TOPIC, e.key(), e.value())).get();
      }
    }
  }
}
