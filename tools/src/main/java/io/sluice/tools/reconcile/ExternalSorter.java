package io.sluice.tools.reconcile;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Sorts rows by primary key in bounded memory: runs of at most {@code runSize} rows are sorted in
 * memory and spilled to temporary files, then merged. Rows arrive in any order (an Iceberg scan has
 * none); memory holds one run plus one row per spilled run.
 */
public final class ExternalSorter implements AutoCloseable {
  private static final Comparator<KeyedLine> BY_KEY = Comparator.comparing(KeyedLine::key);

  private final Path dir;
  private final int runSize;
  private final List<KeyedLine> buffer = new ArrayList<>();
  private final List<Path> runs = new ArrayList<>();
  private final List<DataInputStream> open = new ArrayList<>();

  public ExternalSorter(Path tempDir, int runSize) {
    if (runSize < 1) {
      throw new IllegalArgumentException("runSize must be >= 1, got " + runSize);
    }
    this.dir = tempDir;
    this.runSize = runSize;
  }

  public void add(KeyedLine row) {
    buffer.add(row);
    if (buffer.size() >= runSize) {
      spill();
    }
  }

  /** Every added row, ordered by key; call once, after the last {@link #add}. */
  public Iterator<KeyedLine> sorted() {
    buffer.sort(BY_KEY);
    if (runs.isEmpty()) {
      return buffer.iterator();
    }
    spill();
    PriorityQueue<Head> heads = new PriorityQueue<>(Comparator.comparing(h -> h.row.key()));
    for (Path run : runs) {
      DataInputStream in = input(run);
      open.add(in);
      KeyedLine first = read(in);
      if (first != null) {
        heads.add(new Head(first, in));
      }
    }
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return !heads.isEmpty();
      }

      @Override
      public KeyedLine next() {
        Head head = heads.poll();
        if (head == null) {
          throw new NoSuchElementException();
        }
        KeyedLine next = read(head.in);
        if (next != null) {
          heads.add(new Head(next, head.in));
        }
        return head.row;
      }
    };
  }

  private record Head(KeyedLine row, DataInputStream in) {}

  private void spill() {
    if (buffer.isEmpty()) {
      return;
    }
    buffer.sort(BY_KEY);
    try {
      Path run = Files.createTempFile(dir, "reconcile-run-", ".bin");
      try (DataOutputStream out =
          new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(run), 1 << 16))) {
        for (KeyedLine row : buffer) {
          write(out, row);
        }
      }
      runs.add(run);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot spill a sorted run to " + dir, e);
    }
    buffer.clear();
  }

  private static void write(DataOutputStream out, KeyedLine row) throws IOException {
    Object[] values = row.key().values();
    out.writeShort(values.length);
    for (Object v : values) {
      if (v == null) {
        out.writeByte(0);
      } else if (v instanceof Long l) {
        out.writeByte(1);
        out.writeLong(l);
      } else if (v instanceof BigDecimal d) {
        out.writeByte(2);
        writeText(out, d.toString());
      } else {
        out.writeByte(3);
        writeText(out, v.toString());
      }
    }
    writeText(out, row.line());
  }

  private static KeyedLine read(DataInputStream in) {
    try {
      int n;
      try {
        n = in.readShort();
      } catch (EOFException e) {
        return null;
      }
      Object[] values = new Object[n];
      for (int i = 0; i < n; i++) {
        byte type = in.readByte();
        values[i] =
            switch (type) {
              case 0 -> null;
              case 1 -> in.readLong();
              case 2 -> new BigDecimal(readText(in));
              default -> readText(in);
            };
      }
      return new KeyedLine(new SortKey(values), readText(in));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read a sorted run", e);
    }
  }

  // writeUTF stops at 64 KB; rows can be longer.
  private static void writeText(DataOutputStream out, String text) throws IOException {
    byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static String readText(DataInputStream in) throws IOException {
    byte[] bytes = new byte[in.readInt()];
    in.readFully(bytes);
    return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
  }

  private static DataInputStream input(Path run) {
    try {
      return new DataInputStream(new BufferedInputStream(Files.newInputStream(run), 1 << 16));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open sorted run " + run, e);
    }
  }

  @Override
  public void close() {
    for (DataInputStream in : open) {
      try {
        in.close();
      } catch (IOException e) {
        // deleting below is what matters
      }
    }
    for (Path run : runs) {
      try {
        Files.deleteIfExists(run);
      } catch (IOException e) {
        // a leftover temp file is harmless
      }
    }
  }
}
