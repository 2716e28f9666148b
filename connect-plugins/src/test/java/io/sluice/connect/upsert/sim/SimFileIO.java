package io.sluice.connect.upsert.sim;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.hadoop.HadoopOutputFile;
import org.apache.iceberg.inmemory.InMemoryInputFile;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * A simulated world's object store: files in memory, listed by prefix, stamped with the world's
 * wall clock (so orphan-file removal sees the ages the simulation decides). Parquet files are
 * written through Hadoop's view of the same store ({@link SimFileSystem}): Iceberg's Parquet writer
 * copies the Hadoop configuration of a {@code HadoopOutputFile} and builds a new one, parsing
 * Hadoop's XML defaults, for any other output file.
 */
final class SimFileIO implements SupportsPrefixOperations {
  private record Stored(byte[] bytes, long createdAtMillis) {}

  private record Parsed(Stored from, Object value) {}

  private final Map<String, Stored> files = new ConcurrentSkipListMap<>();
  private final Map<String, Parsed> parsed = new ConcurrentHashMap<>();
  private final LongSupplier wallClock;
  private FileSystem hadoop;

  SimFileIO(LongSupplier wallClock) {
    this.wallClock = wallClock;
  }

  boolean exists(String location) {
    return files.containsKey(location);
  }

  /** The bytes of a file, null when there is none. */
  byte[] bytes(String location) {
    Stored stored = files.get(location);
    return stored == null ? null : stored.bytes();
  }

  /**
   * What {@code parse} reads from the file at {@code location}, read again only once the file holds
   * other bytes (the invariant checks read every manifest of every table after every step, and
   * manifests never change). One parse per location: callers agree on what a location's parse is.
   */
  @SuppressWarnings("unchecked")
  <T> T parsed(String location, Supplier<T> parse) {
    Stored stored = files.get(location);
    Parsed known = parsed.get(location);
    if (stored != null && known != null && known.from() == stored) {
      return (T) known.value();
    }
    T value = parse.get();
    if (stored != null) {
      parsed.put(location, new Parsed(stored, value));
    }
    return value;
  }

  /** Stores a whole file, stamped with the world's wall clock. */
  void put(String location, byte[] bytes) {
    files.put(location, new Stored(bytes, wallClock.getAsLong()));
  }

  int size() {
    return files.size();
  }

  @Override
  public InputFile newInputFile(String location) {
    Stored stored = files.get(location);
    if (stored == null) {
      return new MissingFile(location);
    }
    return new InMemoryInputFile(location, stored.bytes());
  }

  @Override
  public OutputFile newOutputFile(String location) {
    Path path = new Path(location);
    if (location.endsWith(".parquet") && path.toString().equals(location)) {
      return HadoopOutputFile.fromPath(path, hadoop(path), SimFileSystem.CONF);
    }
    return new Output(location);
  }

  private FileSystem hadoop(Path path) {
    if (hadoop == null) {
      try {
        hadoop = path.getFileSystem(SimFileSystem.CONF);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return hadoop;
  }

  @Override
  public void deleteFile(String location) {
    files.remove(location);
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    return files.entrySet().stream()
        .filter(e -> e.getKey().startsWith(prefix))
        .map(
            e ->
                new FileInfo(
                    e.getKey(), e.getValue().bytes().length, e.getValue().createdAtMillis()))
        .toList();
  }

  @Override
  public void deletePrefix(String prefix) {
    List<String> gone = files.keySet().stream().filter(k -> k.startsWith(prefix)).toList();
    gone.forEach(files::remove);
  }

  private final class Output implements OutputFile {
    private final String location;

    Output(String location) {
      this.location = location;
    }

    @Override
    public PositionOutputStream create() {
      if (files.containsKey(location)) {
        throw new AlreadyExistsException("file already exists: %s", location);
      }
      return createOrOverwrite();
    }

    @Override
    public PositionOutputStream createOrOverwrite() {
      return new PositionOutputStream() {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private boolean closed;

        @Override
        public long getPos() {
          return bytes.size();
        }

        @Override
        public void write(int b) {
          bytes.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
          bytes.write(b, off, len);
        }

        @Override
        public void close() {
          if (!closed) {
            closed = true;
            put(location, bytes.toByteArray());
          }
        }
      };
    }

    @Override
    public String location() {
      return location;
    }

    @Override
    public InputFile toInputFile() {
      return newInputFile(location);
    }
  }

  private static final class MissingFile implements InputFile {
    private final String location;

    MissingFile(String location) {
      this.location = location;
    }

    @Override
    public long getLength() {
      throw new NotFoundException("file does not exist: %s", location);
    }

    @Override
    public org.apache.iceberg.io.SeekableInputStream newStream() {
      throw new NotFoundException("file does not exist: %s", location);
    }

    @Override
    public String location() {
      return location;
    }

    @Override
    public boolean exists() {
      return false;
    }
  }
}
