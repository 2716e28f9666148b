package io.sluice.embedded.process;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The lines a child appended to its log file after an offset, read as they come. */
final class ChildLog {
  private final Path file;
  private long position;

  ChildLog(Path file, long from) {
    this.file = file;
    this.position = from;
  }

  /** The complete lines written since the last call; a line still being written waits. */
  List<String> newLines() throws IOException {
    List<String> lines = new ArrayList<>();
    if (!Files.exists(file)) {
      return lines;
    }
    byte[] bytes;
    try (SeekableByteChannel channel = Files.newByteChannel(file)) {
      long size = channel.size();
      if (size <= position) {
        return lines;
      }
      channel.position(position);
      ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(size - position, 1 << 24));
      while (buffer.hasRemaining() && channel.read(buffer) > 0) {
        // until the buffer is full or the file ends
      }
      bytes = buffer.array();
      int read = buffer.position();
      int end = lastNewline(bytes, read);
      if (end < 0) {
        return lines;
      }
      position += end + 1;
      // Decoding only whole lines never splits a multi-byte character.
      String text = new String(bytes, 0, end, StandardCharsets.UTF_8);
      for (String line : text.split("\n", -1)) {
        lines.add(line.stripTrailing());
      }
    }
    return lines;
  }

  private static int lastNewline(byte[] bytes, int length) {
    for (int i = length - 1; i >= 0; i--) {
      if (bytes[i] == '\n') {
        return i;
      }
    }
    return -1;
  }
}
