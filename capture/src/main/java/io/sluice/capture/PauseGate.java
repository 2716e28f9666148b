package io.sluice.capture;

/**
 * Holds the publishing thread while capture is paused. Debezium's queue then fills and its binlog
 * reader stops, so nothing is emitted; on resume every change made meanwhile follows in order.
 */
final class PauseGate {
  private boolean paused;

  synchronized void pause() {
    paused = true;
  }

  synchronized void resume() {
    paused = false;
    notifyAll();
  }

  synchronized boolean isPaused() {
    return paused;
  }

  /** Returns at once when open; blocks while paused. */
  synchronized void awaitOpen() throws InterruptedException {
    while (paused) {
      wait();
    }
  }
}
