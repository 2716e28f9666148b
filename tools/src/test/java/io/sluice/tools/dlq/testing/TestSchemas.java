package io.sluice.tools.dlq.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;

/** The test schemas in src/test/resources: a Debezium-shaped orders topic and a types row. */
public final class TestSchemas {
  public static final String TOPIC = "test.shop.orders";

  private TestSchemas() {}

  public static Schema ordersKey() {
    return parse("/orders-key.avsc");
  }

  public static Schema ordersEnvelope() {
    return parse("/orders-envelope.avsc");
  }

  public static Schema typesRow() {
    return parse("/types-row.avsc");
  }

  /** The text of a test resource. */
  public static String resource(String name) {
    try (InputStream in = TestSchemas.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + name);
      }
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Schema parse(String name) {
    return new Schema.Parser().parse(resource(name));
  }
}
