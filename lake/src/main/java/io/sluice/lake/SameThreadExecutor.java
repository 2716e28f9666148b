package io.sluice.lake;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.SnapshotUpdate;

/**
 * Runs each task on the submitting thread, for Iceberg operations that take an executor ({@code
 * scanManifestsWith}, {@code writeManifestsWith}, {@code executeDeleteWith}). Iceberg waits for its
 * worker pool's tasks in 10 ms polls ({@code Tasks.waitFor}); for the few manifests and files of a
 * sink table's commit that wait is most of the work.
 */
public final class SameThreadExecutor extends AbstractExecutorService {
  public static final SameThreadExecutor INSTANCE = new SameThreadExecutor();

  private SameThreadExecutor() {}

  /** {@code update} with its manifests scanned and written on the committing thread. */
  public static <T extends SnapshotUpdate<T>> T manifestsOnThisThread(T update) {
    return update.scanManifestsWith(INSTANCE).writeManifestsWith(INSTANCE, 1);
  }

  @Override
  public void execute(Runnable command) {
    command.run();
  }

  @Override
  public void shutdown() {}

  @Override
  public List<Runnable> shutdownNow() {
    return List.of();
  }

  @Override
  public boolean isShutdown() {
    return false;
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return false;
  }
}
