package io.sluice.schema.testing;

import org.apache.avro.Schema;

/** Schemas the tests share: an orders row in three versions and its key. */
public final class Schemas {
  public static final String ORDER_V1_TEXT =
      "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"cdc_lab\",\"fields\":["
          + "{\"name\":\"id\",\"type\":\"long\"},"
          + "{\"name\":\"customer\",\"type\":\"string\"}]}";

  /** V1 plus a field with a default: BACKWARD and FORWARD compatible with V1. */
  public static final String ORDER_V2_TEXT =
      "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"cdc_lab\",\"fields\":["
          + "{\"name\":\"id\",\"type\":\"long\"},"
          + "{\"name\":\"customer\",\"type\":\"string\"},"
          + "{\"name\":\"status\",\"type\":\"string\",\"default\":\"NEW\"}]}";

  /** V1 plus a field without a default: a V3 reader cannot read V1 data (not BACKWARD). */
  public static final String ORDER_NO_DEFAULT_TEXT =
      "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"cdc_lab\",\"fields\":["
          + "{\"name\":\"id\",\"type\":\"long\"},"
          + "{\"name\":\"customer\",\"type\":\"string\"},"
          + "{\"name\":\"amount\",\"type\":\"double\"}]}";

  public static final String ORDER_KEY_TEXT =
      "{\"type\":\"record\",\"name\":\"OrderKey\",\"namespace\":\"cdc_lab\",\"fields\":["
          + "{\"name\":\"id\",\"type\":\"long\"}]}";

  public static final Schema ORDER_V1 = parse(ORDER_V1_TEXT);
  public static final Schema ORDER_V2 = parse(ORDER_V2_TEXT);
  public static final Schema ORDER_NO_DEFAULT = parse(ORDER_NO_DEFAULT_TEXT);
  public static final Schema ORDER_KEY = parse(ORDER_KEY_TEXT);

  private Schemas() {}

  public static Schema parse(String text) {
    return new Schema.Parser().parse(text);
  }
}
