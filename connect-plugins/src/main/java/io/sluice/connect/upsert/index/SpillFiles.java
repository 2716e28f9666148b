package io.sluice.connect.upsert.index;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.IdentityHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Memory for a key index past its heap limit: memory-mapped files in the spill directory, which the
 * OS pages in and out. Each file is created, written with zeros, mapped and deleted at once, so a
 * killed worker leaves nothing behind. Its channel stays open so that {@link #release} can truncate
 * it: Java cannot unmap a buffer, and the disk and page cache of a chunk the index outgrew would
 * otherwise stay taken until a GC collected the buffer.
 */
final class SpillFiles {
  private static final Logger log = LoggerFactory.getLogger(SpillFiles.class);
  private static final int PAGE_BYTES = 4096;

  private final Path dir;
  private final Opener opener;
  private final Map<ByteBuffer, FileChannel> channels = new IdentityHashMap<>();
  private ByteBuffer zeros;

  /** Opens a new spill file for reading and writing (tests fail it on purpose). */
  interface Opener {
    FileChannel open(Path file) throws IOException;
  }

  SpillFiles(Path dir) {
    this(dir, file -> FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE));
  }

  SpillFiles(Path dir, Opener opener) {
    this.dir = dir;
    this.opener = opener;
  }

  /** Buffers of {@link #allocate} not released yet, each holding a file and its disk space. */
  int mapped() {
    return channels.size();
  }

  /**
   * Why {@code bytes} more cannot be mapped in the spill directory (made if missing): its disk has
   * less free; null when they can.
   *
   * @throws UncheckedIOException when the directory cannot be used (a plain file in its place, a
   *     volume gone): a failure that may pass, as one of {@link #allocate}, not a limit
   */
  String refusal(long bytes) {
    long usable;
    try {
      Files.createDirectories(dir);
      usable = Files.getFileStore(dir).getUsableSpace();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot use the spill directory " + dir + " (key-index.spill.dir)", e);
    }
    if (usable >= bytes) {
      return null;
    }
    return "the spill directory "
        + dir
        + " has "
        + usable
        + " bytes free, the index needs "
        + bytes
        + " more";
  }

  /** A zero-filled buffer of {@code bytes} in a new file, in native byte order. */
  ByteBuffer allocate(int bytes) {
    Path file = null;
    FileChannel channel = null;
    try {
      Files.createDirectories(dir);
      file = Files.createTempFile(dir, "key-index-", ".spill");
      channel = opener.open(file);
      // Written, not left sparse: a full disk fails this write, not a later access to the mapping
      // (a SIGBUS). Then every page is touched in order: faulting 256 MiB in this way took 0.4 s,
      // where the index's writes at random places faulted them in 2-4 s.
      writeZeros(channel, bytes);
      ByteBuffer chunk =
          channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes).order(ByteOrder.nativeOrder());
      for (int at = 0; at < bytes; at += PAGE_BYTES) {
        chunk.put(at, (byte) 0);
      }
      channels.put(chunk, channel);
      return chunk;
    } catch (IOException e) {
      close(channel);
      throw new UncheckedIOException(
          "cannot map " + bytes + " bytes of key index in " + dir + " (key-index.spill.dir)", e);
    } finally {
      delete(file);
    }
  }

  /**
   * Truncates the file of a buffer of {@link #allocate}, which is not read or written after: its
   * pages and disk blocks are freed now, not at a later GC.
   */
  void release(ByteBuffer chunk) {
    FileChannel channel = channels.remove(chunk);
    if (channel == null) {
      return;
    }
    try {
      channel.truncate(0);
    } catch (IOException e) {
      log.warn("Cannot truncate a key index spill file in {}: {}", dir, e.toString());
    }
    close(channel);
  }

  private void writeZeros(FileChannel channel, long bytes) throws IOException {
    if (zeros == null) {
      zeros = ByteBuffer.allocateDirect(1 << 20);
    }
    for (long at = 0; at < bytes; at += zeros.capacity()) {
      zeros.clear().limit((int) Math.min(zeros.capacity(), bytes - at));
      while (zeros.hasRemaining()) {
        channel.write(zeros, at + zeros.position());
      }
    }
  }

  private void delete(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // The mapping does not need the name: the index goes on, the file takes disk space.
      log.warn("Cannot delete the key index spill file {}: {}", file, e.toString());
    }
  }

  private void close(FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      log.warn("Cannot close a key index spill file in {}: {}", dir, e.toString());
    }
  }
}
