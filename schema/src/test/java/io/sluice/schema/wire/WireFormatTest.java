package io.sluice.schema.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WireFormatTest {

  @Test
  void encodeWritesMagicByteAndBigEndianIdBeforeTheBody() {
    byte[] bytes = WireFormat.encode(0x01020304, new byte[] {9, 8});

    assertThat(bytes).containsExactly(0, 1, 2, 3, 4, 9, 8);
    assertThat(WireFormat.hasHeader(bytes)).isTrue();
    assertThat(WireFormat.schemaId(bytes)).isEqualTo(0x01020304);
  }

  @Test
  void idsAboveTheSignedByteRangeRoundTrip() {
    assertThat(WireFormat.schemaId(WireFormat.encode(Integer.MAX_VALUE, new byte[0])))
        .isEqualTo(Integer.MAX_VALUE);
    assertThat(WireFormat.schemaId(WireFormat.encode(200, new byte[0]))).isEqualTo(200);
  }

  @Test
  void shorterThanTheHeaderIsRejected() {
    assertThat(WireFormat.hasHeader(new byte[] {0, 0, 0, 1})).isFalse();
    assertThatThrownBy(() -> WireFormat.schemaId(new byte[] {0, 0, 0, 1}))
        .isInstanceOf(WireFormatException.class)
        .hasMessage("expected at least 5 bytes (magic byte + schema id), got 4");
    assertThatThrownBy(() -> WireFormat.schemaId(null))
        .isInstanceOf(WireFormatException.class)
        .hasMessage("expected at least 5 bytes (magic byte + schema id), got 0");
  }

  @Test
  void aWrongMagicByteIsRejected() {
    byte[] json = "{\"id\":1}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    assertThat(WireFormat.hasHeader(json)).isFalse();
    assertThatThrownBy(() -> WireFormat.schemaId(json))
        .isInstanceOf(WireFormatException.class)
        .hasMessage("expected magic byte 0x00, got 0x7b");
  }
}
