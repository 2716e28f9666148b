package io.sluice.schema.avro;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/** Inputs for the scanner's fuzz tests: schemas from resources, Avro bodies and their mutations. */
final class AvroInputs {
  private AvroInputs() {}

  /** The Avro binary of {@code record}, written by Avro's own writer. */
  static byte[] body(GenericRecord record) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    try {
      new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  static Schema load(String resource) {
    try (InputStream in = AvroInputs.class.getResourceAsStream(resource)) {
      return new Schema.Parser().parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A copy of {@code body} with one random change: up to three bytes replaced, one bit flipped, one
   * byte inserted or deleted, or bytes appended.
   */
  static byte[] mutate(byte[] body, Random random) {
    byte[] copy = body.clone();
    switch (random.nextInt(5)) {
      case 0 -> {
        for (int n = 1 + random.nextInt(3); n > 0 && copy.length > 0; n--) {
          copy[random.nextInt(copy.length)] = (byte) random.nextInt(256);
        }
        return copy;
      }
      case 1 -> {
        if (copy.length > 0) {
          int at = random.nextInt(copy.length);
          copy[at] = (byte) (copy[at] ^ (1 << random.nextInt(8)));
        }
        return copy;
      }
      case 2 -> {
        int at = random.nextInt(copy.length + 1);
        byte[] longer = new byte[copy.length + 1];
        System.arraycopy(copy, 0, longer, 0, at);
        longer[at] = (byte) random.nextInt(256);
        System.arraycopy(copy, at, longer, at + 1, copy.length - at);
        return longer;
      }
      case 3 -> {
        if (copy.length == 0) {
          return copy;
        }
        int at = random.nextInt(copy.length);
        byte[] shorter = new byte[copy.length - 1];
        System.arraycopy(copy, 0, shorter, 0, at);
        System.arraycopy(copy, at + 1, shorter, at, copy.length - at - 1);
        return shorter;
      }
      default -> {
        return Arrays.copyOf(copy, copy.length + 1 + random.nextInt(4));
      }
    }
  }
}
