package io.sluice.tools.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** How the catalog flags make a catalog object, before any catalog is opened. */
class CatalogOptionsTest {
  @Command(name = "probe")
  static final class Probe {
    @Mixin CatalogOptions catalog;
  }

  private static CatalogOptions parse(String... args) {
    Probe probe = new Probe();
    new CommandLine(probe).parseArgs(args);
    return probe.catalog;
  }

  @Test
  void noFlagLeavesTheCatalogToTheReadyFile() {
    assertThat(parse().catalogObject()).isNull();
  }

  @Test
  void catalogPropertiesGoOverTheUrisObject() {
    Map<String, String> object =
        parse(
                "--catalog-uri",
                "http://localhost:8181",
                "--warehouse",
                "s3://warehouse/",
                "--catalog",
                "io-impl=org.apache.iceberg.aws.s3.S3FileIO",
                "--catalog",
                "s3.endpoint=http://localhost:9000")
            .catalogObject();

    assertThat(object)
        .containsEntry("name", "sluice")
        .containsEntry("type", "rest")
        .containsEntry("uri", "http://localhost:8181")
        .containsEntry("warehouse", "s3://warehouse/")
        .containsEntry("io-impl", "org.apache.iceberg.aws.s3.S3FileIO")
        .containsEntry("s3.endpoint", "http://localhost:9000");
  }

  @Test
  void catalogPropertiesAloneAreTheWholeObject() {
    Map<String, String> object =
        parse(
                "--catalog",
                "type=rest",
                "--catalog",
                "uri=http://iceberg-rest:8181",
                "--catalog-name",
                "lake")
            .catalogObject();

    assertThat(object)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("name", "lake", "type", "rest", "uri", "http://iceberg-rest:8181"));
  }

  @Test
  void catalogPropertiesWithoutATypeNameWhatIsMissing() {
    CatalogOptions options = parse("--catalog", "uri=http://localhost:8181");

    assertThatThrownBy(options::catalogObject)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs type=")
        .hasMessageContaining("--catalog-uri");
  }
}
