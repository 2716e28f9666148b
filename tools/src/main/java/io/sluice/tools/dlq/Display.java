package io.sluice.tools.dlq;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;

/** How the commands print bytes and ages. Output for the user's terminal only, never logs. */
final class Display {
  private static final int HEX_BYTES_PER_LINE = 32;

  private Display() {}

  /** The bytes as text when they are printable UTF-8 (tabs and line breaks allowed), else null. */
  static String printableText(byte[] bytes) {
    if (bytes == null) {
      return null;
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
    boolean printable =
        text.codePoints()
            .allMatch(c -> c == '\n' || c == '\r' || c == '\t' || !Character.isISOControl(c));
    return printable ? text : null;
  }

  /** Lines of {@value #HEX_BYTES_PER_LINE} hex bytes, each prefixed with its offset. */
  static String hexDump(byte[] bytes) {
    StringBuilder out = new StringBuilder();
    HexFormat hex = HexFormat.ofDelimiter(" ");
    for (int from = 0; from < bytes.length; from += HEX_BYTES_PER_LINE) {
      int to = Math.min(bytes.length, from + HEX_BYTES_PER_LINE);
      out.append(String.format("%08x  ", from)).append(hex.formatHex(bytes, from, to)).append('\n');
    }
    return out.toString();
  }

  /** A short value: printable text in quotes, else {@code hex:...}. */
  static String shortValue(byte[] bytes) {
    if (bytes == null) {
      return "null";
    }
    String text = printableText(bytes);
    return text != null ? "\"" + text + "\"" : "hex:" + HexFormat.of().formatHex(bytes);
  }

  /** An age like {@code 45s}, {@code 3m12s}, {@code 2h05m}, {@code 4d03h}. */
  static String age(Duration age) {
    long s = Math.max(0, age.toSeconds());
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return String.format("%dm%02ds", s / 60, s % 60);
    }
    if (s < 86_400) {
      return String.format("%dh%02dm", s / 3600, (s % 3600) / 60);
    }
    return String.format("%dd%02dh", s / 86_400, (s % 86_400) / 3600);
  }
}
