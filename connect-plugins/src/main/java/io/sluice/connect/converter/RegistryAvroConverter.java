package io.sluice.connect.converter;

import io.sluice.schema.Subjects;
import io.sluice.schema.connect.ConnectAvroCodec;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.registry.RegistryException;
import io.sluice.schema.registry.RegistryUnavailableException;
import io.sluice.schema.wire.WireFormat;
import io.sluice.schema.wire.WireFormatException;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.storage.Converter;

/**
 * Kafka Connect {@link Converter} for Confluent-wire Avro through a schema registry, both ways and
 * for keys and values; usable by any connector in the worker ({@code key.converter} / {@code
 * value.converter} = this class, {@code *.converter.schema.registry.url} = the registry).
 *
 * <p>A null value is a tombstone both ways. Bytes that are not Confluent wire format, name an
 * unknown schema id or do not decode fail with a {@link DataException} naming the topic and the
 * schema id; an unreachable registry is a {@link RetriableException}, never a data error.
 */
public class RegistryAvroConverter implements Converter {
  private ConnectAvroCodec codec;
  private boolean isKey;

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    RegistryAvroConverterConfig config = new RegistryAvroConverterConfig(configs);
    configure(
        new ConnectAvroCodec(
            HttpSchemaRegistryClient.create(config.schemaRegistryUrl()),
            config.autoRegisterSchemas()),
        isKey);
  }

  /** Configures with a ready codec (tests, or a worker that shares one registry client). */
  public void configure(ConnectAvroCodec codec, boolean isKey) {
    this.codec = codec;
    this.isKey = isKey;
  }

  @Override
  public byte[] fromConnectData(String topic, Schema schema, Object value) {
    if (value == null) {
      return null;
    }
    if (schema == null) {
      throw new DataException(
          "cannot write a " + part() + " without a schema to topic " + topic + " as Avro");
    }
    String subject = Subjects.of(topic, isKey);
    try {
      return codec.encode(subject, schema, value);
    } catch (RegistryUnavailableException e) {
      throw new RetriableException(
          "schema registry unavailable while registering the " + part() + " schema of " + subject,
          e);
    } catch (RegistryException e) {
      throw new DataException(
          "registry refused the "
              + part()
              + " schema of subject "
              + subject
              + ": "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public SchemaAndValue toConnectData(String topic, byte[] value) {
    if (value == null) {
      return SchemaAndValue.NULL;
    }
    if (!WireFormat.hasHeader(value)) {
      throw new DataException(
          "the "
              + part()
              + " on topic "
              + topic
              + " is not Confluent-wire Avro ("
              + value.length
              + " bytes, no magic byte 0 + schema id)");
    }
    int id = WireFormat.schemaId(value);
    try {
      return codec.decode(topic, value);
    } catch (RegistryUnavailableException e) {
      throw new RetriableException(
          "schema registry unavailable while resolving schema id " + id + " on topic " + topic, e);
    } catch (RegistryException e) {
      throw new DataException(
          "cannot resolve schema id " + id + " of the " + part() + " on topic " + topic, e);
    } catch (WireFormatException e) {
      throw new DataException(
          "the " + part() + " on topic " + topic + " is not Confluent-wire Avro: " + e.getMessage(),
          e);
    }
  }

  @Override
  public ConfigDef config() {
    return RegistryAvroConverterConfig.configDef();
  }

  private String part() {
    return isKey ? "key" : "value";
  }
}
