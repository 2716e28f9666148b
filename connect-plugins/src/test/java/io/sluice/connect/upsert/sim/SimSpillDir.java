package io.sluice.connect.upsert.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The real directory of a schedule's key-index spill files ({@code key-index.spill.dir}), one
 * subdirectory per task incarnation, under one per task id, and the faults of a real filesystem: a
 * task's directory replaced by a plain file, so that no spill file can be made under it until it is
 * a directory again. Which spill files are still open is read from {@code /proc/self/fd}: a spill
 * file is deleted as soon as it is mapped, so only its open descriptor (and its disk space) remains
 * until it is released.
 */
final class SimSpillDir implements AutoCloseable {
  private static final Path FDS = Path.of("/proc/self/fd");

  private final Path root;
  private boolean broken;
  // Incarnations killed with their process: the spill files they hold would go with it.
  private final java.util.Set<Path> crashed = new java.util.HashSet<>();

  SimSpillDir() {
    try {
      this.root = Files.createTempDirectory("sluice-sim-spill-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The spill directory of incarnation {@code incarnation} of task {@code id}. */
  Path of(int id, int incarnation) {
    return task(id).resolve("i" + incarnation);
  }

  private Path task(int id) {
    return root.resolve("task" + id);
  }

  /** The incarnation is killed: the files it holds open are the dead process's. */
  void crashed(int id, int incarnation) {
    crashed.add(of(id, incarnation));
  }

  boolean broken() {
    return broken;
  }

  /** Each task's directory becomes a plain file: creating a spill file there fails. */
  void breakAll(int tasks) {
    try {
      for (int id = 0; id < tasks; id++) {
        Path dir = task(id);
        deleteTree(dir);
        Files.writeString(dir, "not a directory: the simulation broke key-index.spill.dir\n");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    broken = true;
  }

  /** Each task's directory is a directory again. */
  void restoreAll(int tasks) {
    try {
      for (int id = 0; id < tasks; id++) {
        Path dir = task(id);
        if (Files.isRegularFile(dir)) {
          Files.delete(dir);
        }
        Files.createDirectories(dir);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    broken = false;
  }

  /** The files under {@code dir} the process holds open (deleted spill files among them). */
  static List<String> openUnder(Path dir) {
    List<String> open = new ArrayList<>();
    if (!Files.isDirectory(FDS)) {
      return open;
    }
    String prefix = dir.toString() + "/";
    try (Stream<Path> fds = Files.list(FDS)) {
      fds.forEach(
          fd -> {
            try {
              String target = Files.readSymbolicLink(fd).toString();
              if (target.startsWith(prefix)) {
                open.add(target);
              }
            } catch (IOException e) {
              // Closed meanwhile (another schedule's thread): not a file of this directory.
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return open;
  }

  /** Open files under the directory of every incarnation not killed. */
  List<String> open() {
    return openUnder(root).stream()
        .filter(f -> crashed.stream().noneMatch(dir -> f.startsWith(dir + "/")))
        .toList();
  }

  /** Regular files left under every task's directory (a broken directory's stand-in excluded). */
  List<String> filesLeft() {
    try (Stream<Path> all = Files.walk(root)) {
      return all.filter(p -> p.getNameCount() > root.getNameCount() + 1 && Files.isRegularFile(p))
          .map(Path::toString)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      deleteTree(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteTree(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> all = Files.walk(path)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
