package io.sluice.router.lineage;

/**
 * Why the lake cannot follow a schema: what happens to which field, and the accepted schema it
 * cannot follow.
 *
 * @param detail the field path, both types and the rule, e.g. {@code field after.amount_cents
 *     changes long -> string, which Iceberg cannot evolve}
 * @param followedId the accepted schema id the lake holds that field from
 */
public record Refusal(String detail, int followedId) {
  static Refusal typeChanged(String path, LakeType from, LakeType to, int followedId) {
    return new Refusal(
        "field " + path + " changes " + from + " -> " + to + ", which Iceberg cannot evolve",
        followedId);
  }

  static Refusal requiredAdded(String path, LakeType type, int followedId) {
    return new Refusal(
        "field "
            + path
            + " is added as required "
            + type
            + " (absent -> "
            + type
            + "), which Iceberg cannot add to a table that has rows; add it as a union with null",
        followedId);
  }

  static Refusal requiredDropped(String path, LakeType type, int followedId) {
    return new Refusal(
        "field "
            + path
            + " is dropped while required ("
            + type
            + " -> absent), which Iceberg cannot evolve: the column would have no value",
        followedId);
  }

  static Refusal keyFieldAdded(String path, LakeType type, int followedId) {
    return new Refusal(
        "key field "
            + path
            + " is added (absent -> "
            + type
            + "), which changes the identifier that upserts match rows by",
        followedId);
  }

  static Refusal keyFieldDropped(String path, LakeType type, int followedId) {
    return new Refusal(
        "key field "
            + path
            + " is dropped ("
            + type
            + " -> absent), which changes the identifier that upserts match rows by",
        followedId);
  }

  static Refusal keyFieldOptional(String path, LakeType type, int followedId) {
    return new Refusal(
        "key field "
            + path
            + " changes "
            + type
            + " -> union[null, "
            + type
            + "], which Iceberg cannot evolve: identifier fields are required",
        followedId);
  }
}
