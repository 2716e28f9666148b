package io.sluice.connect.upsert.event;

/** What happened at the source, as Debezium names it ({@code op} c, r, u, d). */
public enum SourceOp {
  CREATE("c"),
  /** A snapshot read. */
  READ("r"),
  UPDATE("u"),
  DELETE("d");

  private final String code;

  SourceOp(String code) {
    this.code = code;
  }

  /** Debezium's one-letter code. */
  public String code() {
    return code;
  }

  /** What the change does to the key's row. */
  public Operation operation() {
    return this == DELETE ? Operation.DELETE : Operation.UPSERT;
  }
}
