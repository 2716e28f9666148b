package io.sluice.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;

/**
 * The two schema changes of the sink-poison scenario, made to a Debezium envelope schema as a DBA
 * would make them to the table: the <em>retyped</em> schema, whose row field (say {@code
 * amount_cents}) is a string where the lake has a long, and the <em>reverted</em> one, the accepted
 * schema again with a field doc that tells it apart, so the registry keeps it as a new (latest)
 * version instead of answering with the accepted version's id.
 *
 * <p>The change is made to the schema's JSON: a named record is defined once and referenced by name
 * after, so changing the field where the row record is defined changes {@code before} and {@code
 * after} alike.
 */
public final class RetypedSchemas {
  private static final ObjectMapper JSON = new ObjectMapper();

  private RetypedSchemas() {}

  /**
   * {@code envelope} with {@code field} of its row record turned into a string (kept optional when
   * it was).
   *
   * @throws ScenarioFailure when no record of the schema has the field
   */
  public static Schema retyped(Schema envelope, String field) {
    ObjectNode root = tree(envelope);
    ObjectNode definition = find(root, field);
    if (definition == null) {
      throw new ScenarioFailure(
          "schema " + envelope.getFullName() + " has no record with a field " + field);
    }
    JsonNode type = definition.get("type");
    if (type.isArray()) {
      ArrayNode branches = JSON.createArrayNode();
      type.forEach(b -> branches.add(isNull(b) ? b : TextNode.valueOf("string")));
      definition.set("type", branches);
    } else {
      definition.put("type", "string");
    }
    JsonNode defaultValue = definition.get("default");
    if (defaultValue != null && !defaultValue.isNull()) {
      definition.put("default", defaultValue.asText());
    }
    return parse(root);
  }

  /** {@code accepted} with {@code doc} on {@code field}: the same types, a new registry version. */
  public static Schema reverted(Schema accepted, String field, String doc) {
    ObjectNode root = tree(accepted);
    ObjectNode definition = find(root, field);
    if (definition == null) {
      throw new ScenarioFailure(
          "schema " + accepted.getFullName() + " has no record with a field " + field);
    }
    definition.put("doc", doc);
    return parse(root);
  }

  /** The Avro type name of {@code field} in {@code envelope}'s row record, nulls left out. */
  public static String typeOf(Schema envelope, String field) {
    ObjectNode definition = find(tree(envelope), field);
    if (definition == null) {
      return null;
    }
    JsonNode type = definition.get("type");
    if (type.isArray()) {
      for (JsonNode branch : type) {
        if (!isNull(branch)) {
          type = branch;
          break;
        }
      }
    }
    return type.isObject() ? type.path("type").asText() : type.asText();
  }

  /** The first definition of a field named {@code field} in a record, depth first. */
  private static ObjectNode find(JsonNode node, String field) {
    if (node.isArray()) {
      for (JsonNode child : node) {
        ObjectNode found = find(child, field);
        if (found != null) {
          return found;
        }
      }
      return null;
    }
    if (!node.isObject()) {
      return null;
    }
    if ("record".equals(node.path("type").asText()) && node.get("fields") instanceof ArrayNode fs) {
      for (JsonNode f : fs) {
        if (field.equals(f.path("name").asText()) && f instanceof ObjectNode definition) {
          return definition;
        }
      }
      for (JsonNode f : fs) {
        ObjectNode found = find(f.path("type"), field);
        if (found != null) {
          return found;
        }
      }
      return null;
    }
    return node.has("type") ? find(node.get("type"), field) : null;
  }

  private static boolean isNull(JsonNode branch) {
    return "null".equals(branch.asText()) || "null".equals(branch.path("type").asText());
  }

  private static ObjectNode tree(Schema schema) {
    try {
      return (ObjectNode) JSON.readTree(schema.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read schema " + schema.getFullName(), e);
    }
  }

  private static Schema parse(ObjectNode root) {
    return new Schema.Parser().parse(root.toString());
  }
}
