package io.sluice.deployment;

import java.nio.file.Files;
import java.nio.file.Path;

/** Files of the repository outside this module: the compose stack and the Grafana dashboards. */
final class RepoFiles {
  private RepoFiles() {}

  /** The checkout's root: the first folder up from the working directory holding compose/. */
  static Path root() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("compose/docker-compose.yml"))
          && Files.isDirectory(dir.resolve("grafana"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "no compose/docker-compose.yml above " + Path.of("").toAbsolutePath());
  }
}
