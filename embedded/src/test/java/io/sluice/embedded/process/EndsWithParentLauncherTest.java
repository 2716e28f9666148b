package io.sluice.embedded.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Connect worker's child JVM starts {@link EndsWithParent} from a {@code connect-launcher/}
 * directory that holds {@code io/sluice/embedded/process/EndsWithParent*.class} and no other Sluice
 * class (the build lays it out): these classes must run on the JDK and each other alone, or a
 * daemon thread of the child dies of {@code NoClassDefFoundError} and the child outlives a
 * SIGKILLed parent.
 */
class EndsWithParentLauncherTest {
  private static final String PACKAGE = "io/sluice/embedded/process/";

  @TempDir Path launcher;
  private final Set<String> launcherClasses = new TreeSet<>();

  /** The launcher directory as the cli build unpacks it, from this module's classes. */
  @BeforeEach
  void layOutLauncher() throws Exception {
    Path classes =
        Path.of(EndsWithParent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path target = Files.createDirectories(launcher.resolve(PACKAGE));
    try (DirectoryStream<Path> files =
        Files.newDirectoryStream(classes.resolve(PACKAGE), "EndsWithParent*.class")) {
      for (Path file : files) {
        Files.copy(file, target.resolve(file.getFileName()));
        String name = file.getFileName().toString();
        launcherClasses.add(PACKAGE + name.substring(0, name.length() - ".class".length()));
      }
    }
    assertThat(launcherClasses).contains(PACKAGE + "EndsWithParent");
  }

  @Test
  void launcherClassesReferenceOnlyJdkClassesAndEachOther() throws IOException {
    List<String> outside = new ArrayList<>();
    for (String launcherClass : launcherClasses) {
      for (String used : classesReferencedBy(launcher.resolve(launcherClass + ".class"))) {
        if (!launcherClasses.contains(used) && !isJdkClass(used)) {
          outside.add(launcherClass + " -> " + used);
        }
      }
    }
    assertThat(outside).as("classes the launcher directory lacks").isEmpty();
  }

  @Test
  void parentPidCheckRunsFromTheLauncherDirectoryAlone() throws Exception {
    ProcessHandle self = ProcessHandle.current();
    long started = self.info().startInstant().orElseThrow().toEpochMilli();
    try (URLClassLoader alone =
        new URLClassLoader(
            new URL[] {launcher.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      Class<?> isolated = alone.loadClass(EndsWithParent.class.getName());
      assertThat(isolated.getClassLoader()).isSameAs(alone);
      Method find = isolated.getDeclaredMethod("find", long.class, long.class);
      find.setAccessible(true);

      assertThat((Optional<?>) find.invoke(null, self.pid(), started)).isPresent();
      // The same pid with another start time is a later process that reused it: not the parent.
      assertThat((Optional<?>) find.invoke(null, self.pid(), started - 60_000)).isEmpty();
    }
  }

  private static boolean isJdkClass(String internalName) {
    try {
      Class.forName(internalName.replace('/', '.'), false, ClassLoader.getPlatformClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /** The CONSTANT_Class entries of a class file (JVMS 4.4), array types by their element type. */
  private static Set<String> classesReferencedBy(Path classFile) throws IOException {
    try (InputStream file = Files.newInputStream(classFile);
        DataInputStream in = new DataInputStream(file)) {
      in.readInt(); // magic
      in.readInt(); // minor and major version
      int count = in.readUnsignedShort();
      String[] utf8 = new String[count];
      List<Integer> classNameIndexes = new ArrayList<>();
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> utf8[i] = in.readUTF();
          case 7 -> classNameIndexes.add(in.readUnsignedShort());
          case 8, 16, 19, 20 -> in.readUnsignedShort();
          case 15 -> in.skipBytes(3);
          case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
          case 5, 6 -> {
            in.readLong();
            i++; // takes two entries
          }
          default -> throw new IOException(classFile + ": unknown constant pool tag " + tag);
        }
      }
      Set<String> names = new TreeSet<>();
      for (int index : classNameIndexes) {
        String name = utf8[index];
        if (name.startsWith("[")) {
          name = name.replaceFirst("^\\[+", "");
          if (!name.startsWith("L")) {
            continue; // an array of primitives
          }
          name = name.substring(1, name.length() - 1);
        }
        names.add(name);
      }
      return names;
    }
  }
}
