package io.sluice.connect.upsert.maintenance;

import static io.sluice.connect.upsert.maintenance.Fakes.dv;
import static io.sluice.connect.upsert.maintenance.Fakes.equalityDeletes;
import static io.sluice.connect.upsert.maintenance.Fakes.positionDeletes;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.apache.iceberg.DeleteFile;
import org.junit.jupiter.api.Test;

/**
 * Which delete files a rewrite as of sequence number 10 may remove ({@link DanglingDeletes}): of a
 * whole partition, or of some of its files.
 */
class MaintenanceDanglingDeletesTest {
  private static final long S = 10;
  private static final Set<String> REPLACED = Set.of("data/a.parquet", "data/b.parquet");

  @Test
  void everyEqualityDeleteUpToTheRewritesSequenceNumberIsDangling() {
    DeleteFile older = equalityDeletes(3);
    DeleteFile ofS = equalityDeletes(S);
    DeleteFile newer = equalityDeletes(S + 1);
    assertThat(DanglingDeletes.select(List.of(older, ofS, newer), S, REPLACED))
        .containsExactly(older, ofS);
  }

  @Test
  void aPositionDeleteIsDanglingWhenItsDataFileIsReplacedOrUnknown() {
    DeleteFile ofReplaced = positionDeletes(4, "data/a.parquet");
    DeleteFile unknownTarget = positionDeletes(S, null);
    DeleteFile ofAnotherFile = positionDeletes(4, "data/kept.parquet");
    DeleteFile newer = positionDeletes(S + 1, "data/b.parquet");
    assertThat(
            DanglingDeletes.select(
                List.of(ofReplaced, unknownTarget, ofAnotherFile, newer), S, REPLACED))
        .containsExactly(ofReplaced, unknownTarget);
  }

  @Test
  void aFileRewriteRemovesTheDeletesThatNameAReplacedFileAloneNewerOnesToo() {
    DeleteFile dvOfReplaced = dv(4, "data/a.parquet", 3);
    DeleteFile positionsOfReplaced = positionDeletes(S, "data/b.parquet");
    DeleteFile dvOfKept = dv(4, "data/kept.parquet", 3);
    DeleteFile severalFiles = positionDeletes(4, null);
    DeleteFile equality = equalityDeletes(4);
    DeleteFile newer = dv(S + 1, "data/a.parquet", 4);

    assertThat(
            DanglingDeletes.ofReplacedFiles(
                List.of(dvOfReplaced, positionsOfReplaced, dvOfKept, severalFiles, equality, newer),
                REPLACED))
        .containsExactly(dvOfReplaced, positionsOfReplaced, newer);
  }
}
