package io.sluice.capture;

/** States reported by the admin API, named as Kafka Connect names them. */
public enum CaptureState {
  UNASSIGNED,
  RUNNING,
  PAUSED,
  FAILED,
  STOPPED
}
