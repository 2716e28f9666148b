package io.sluice.connect.upsert;

/** The plugin version Connect reports: the jar's Implementation-Version, else {@code dev}. */
final class Versions {
  private Versions() {}

  static String of(Class<?> type) {
    String version = type.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
