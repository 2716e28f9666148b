package io.sluice.connect.upsert.sim;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * Hadoop's view of a simulated world's object store ({@code sim://<world>/...}), so that Parquet
 * writers get their Hadoop {@code Configuration} from a {@code HadoopOutputFile} ({@link
 * SimFileIO#newOutputFile}) and copy one small {@link #CONF} instead of parsing Hadoop's XML
 * defaults again for every file. Parquet's writer opens the file system again by the path's scheme
 * ({@code fs.sim.impl}); the world is the path's authority.
 */
public final class SimFileSystem extends FileSystem {
  static final String SCHEME = "sim";

  /** The simulation's file system and nothing else; every Parquet writer of it copies this. */
  static final Configuration CONF = loadedConf();

  private URI uri;
  private SimFileIO store;
  private Path workingDirectory;

  public SimFileSystem() {}

  private static Configuration loadedConf() {
    // No XML defaults: every Parquet writer copies this configuration, and a copy of Hadoop's
    // hundreds of defaults was a twentieth of the schedules' time. What Parquet and Hadoop read
    // from it has defaults in code.
    Configuration conf = new Configuration(false);
    conf.setClass("fs." + SCHEME + ".impl", SimFileSystem.class, FileSystem.class);
    // A world lives for one schedule: no cached instance may keep its files alive.
    conf.setBoolean("fs." + SCHEME + ".impl.disable.cache", true);
    conf.size();
    return conf;
  }

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    this.uri = URI.create(SCHEME + "://" + name.getAuthority());
    this.store = SimWorld.of(name.getAuthority()).io;
    this.workingDirectory = new Path(uri.toString() + "/");
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    String location = f.toString();
    if (!overwrite && store.exists(location)) {
      throw new FileAlreadyExistsException("file already exists: " + location);
    }
    return new FSDataOutputStream(new Bytes(location), statistics);
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    byte[] bytes = store.bytes(f.toString());
    if (bytes == null) {
      throw new FileNotFoundException("file does not exist: " + f);
    }
    return new FSDataInputStream(new BytesInput(bytes));
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    byte[] bytes = store.bytes(f.toString());
    if (bytes == null) {
      throw new FileNotFoundException("file does not exist: " + f);
    }
    return new FileStatus(bytes.length, false, 1, bytes.length, 0, f);
  }

  @Override
  public boolean delete(Path f, boolean recursive) {
    boolean existed = store.exists(f.toString());
    store.deleteFile(f.toString());
    return existed;
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) {
    throw new UnsupportedOperationException("the simulated store appends to no file");
  }

  @Override
  public boolean rename(Path src, Path dst) {
    throw new UnsupportedOperationException("the simulated store renames no file");
  }

  @Override
  public FileStatus[] listStatus(Path f) {
    throw new UnsupportedOperationException("the simulation lists through SimFileIO");
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    this.workingDirectory = dir;
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDirectory;
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) {
    return true;
  }

  /** The bytes of a file being written; stored as a whole when closed, as an object store does. */
  private final class Bytes extends ByteArrayOutputStream {
    private final String location;
    private boolean closed;

    Bytes(String location) {
      this.location = location;
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        store.put(location, toByteArray());
      }
    }
  }

  private static final class BytesInput extends FSInputStream {
    private final byte[] bytes;
    private int pos;

    BytesInput(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public void seek(long target) throws IOException {
      if (target < 0 || target > bytes.length) {
        throw new EOFException("seek to " + target + " of " + bytes.length + " bytes");
      }
      pos = (int) target;
    }

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read() {
      return pos < bytes.length ? bytes[pos++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (len == 0) {
        return 0;
      }
      if (pos >= bytes.length) {
        return -1;
      }
      int n = Math.min(len, bytes.length - pos);
      System.arraycopy(bytes, pos, b, off, n);
      pos += n;
      return n;
    }

    @Override
    public int available() {
      return bytes.length - pos;
    }
  }
}
