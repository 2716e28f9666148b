package io.sluice.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding the prometheus binary (no process is started here: see PrometheusServerIT). */
class PrometheusServerTest {
  @TempDir Path dir;

  @Test
  void anExplicitPathWinsOverTheEnvironmentAndThePath() throws Exception {
    Path explicit = executable(dir.resolve("explicit/prometheus"));
    Path fromEnv = executable(dir.resolve("env/prometheus"));
    Path onPath = executable(dir.resolve("bin/prometheus"));

    assertThat(PrometheusServer.locate(explicit, fromEnv.toString(), onPath.getParent().toString()))
        .isEqualTo(explicit);
    assertThat(PrometheusServer.locate(null, fromEnv.toString(), onPath.getParent().toString()))
        .isEqualTo(fromEnv);
    assertThat(PrometheusServer.locate(null, "", onPath.getParent().toString())).isEqualTo(onPath);
  }

  @Test
  void thePathIsSearchedInOrderForAnExecutableFile() throws Exception {
    Path notExecutable = dir.resolve("first/prometheus");
    Files.createDirectories(notExecutable.getParent());
    Files.writeString(notExecutable, "");
    Path second = executable(dir.resolve("second/prometheus"));
    executable(dir.resolve("third/prometheus"));
    String path =
        String.join(
            File.pathSeparator,
            dir.resolve("missing").toString(),
            "",
            notExecutable.getParent().toString(),
            second.getParent().toString(),
            dir.resolve("third").toString());

    assertThat(PrometheusServer.locate(null, null, path)).isEqualTo(second);
  }

  @Test
  void noBinaryAnywhereNamesTheSetupScript() {
    assertThatThrownBy(() -> PrometheusServer.locate(null, null, dir.toString()))
        .isInstanceOf(StackStartException.class)
        .hasMessage(
            "no prometheus on the PATH: install it with scripts/setup --prometheus (Debian's"
                + " package), or name the binary with --prometheus-binary or SLUICE_PROMETHEUS");
  }

  @Test
  void aNamedBinaryThatIsNotThereSaysWhereTheNameCameFrom() {
    Path missing = dir.resolve("nope/prometheus");
    assertThatThrownBy(() -> PrometheusServer.locate(null, missing.toString(), null))
        .isInstanceOf(StackStartException.class)
        .hasMessage(
            "prometheus binary "
                + missing
                + " (from SLUICE_PROMETHEUS="
                + missing
                + ") is not an executable file; scripts/setup --prometheus installs Debian's");
    assertThatThrownBy(() -> PrometheusServer.locate(missing, null, null))
        .isInstanceOf(StackStartException.class)
        .hasMessageContaining("(from --prometheus-binary " + missing + ")");
  }

  private static Path executable(Path file) throws Exception {
    Files.createDirectories(file.getParent());
    Files.writeString(file, "#!/bin/sh\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }
}
