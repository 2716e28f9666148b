package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.schema.server.DevSchemaRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The image of compose/sluice.Dockerfile (router, capture, monitor and the operator's {@code
 * sluice} command) holds no class of the dev schema registry, which is for the embedded stacks and
 * tests only. What can be checked without a Docker engine: the image's lib/ is the runtime
 * dependencies of compose/sluice/pom.xml and nothing else is copied from the build, so the Sluice
 * modules in it are those that pom reaches through compile and runtime dependencies; none of them
 * is the dev registry's module, and none of their built classes is in its package.
 */
class SluiceImageContentsTest {
  private static final Path REPO = RepoFiles.root();
  private static final Path COMPOSE = REPO.resolve("compose");
  private static final String SLUICE = "io.sluice";

  /** The dev registry's package (its module holds no other), wherever its classes are built. */
  private static final String DEV_REGISTRY_PACKAGE = DevSchemaRegistry.class.getPackageName();

  /** Maven scopes that put a dependency and its own compile and runtime ones into lib/. */
  private static final Set<String> RUNTIME_SCOPES = Set.of("compile", "runtime");

  private static Map<String, Path> modulesByArtifactId;

  @BeforeAll
  static void readModules() throws Exception {
    modulesByArtifactId = new HashMap<>();
    for (Element module : children(child(pom(REPO.resolve("pom.xml")), "modules"), "module")) {
      Path dir = REPO.resolve(module.getTextContent().trim());
      modulesByArtifactId.put(text(pom(dir.resolve("pom.xml")), "artifactId"), dir);
    }
  }

  @Test
  void theImageCopiesOnlyTheRuntimeDependenciesOfItsPom() throws IOException {
    String dockerfile = Files.readString(COMPOSE.resolve("sluice.Dockerfile"));

    assertThat(dockerfile.replaceAll("\\s*\\\\\\n\\s*", " "))
        .contains(
            "mvn -B -q -f compose/sluice/pom.xml dependency:copy-dependencies"
                + " -DincludeScope=runtime -DoutputDirectory=/opt/sluice/lib");
    List<String> fromBuild = new ArrayList<>();
    Matcher copy = Pattern.compile("(?m)^COPY --from=build .*$").matcher(dockerfile);
    while (copy.find()) {
      fromBuild.add(copy.group());
    }
    assertThat(fromBuild).containsExactly("COPY --from=build /opt/sluice/lib lib");
  }

  @Test
  void noModuleInTheImageIsTheDevRegistryOrHoldsItsClasses() throws Exception {
    Set<String> modules = sluiceModulesOfTheImage();

    assertThat(modules)
        .contains("sluice-router", "sluice-capture", "sluice-tools", "sluice-schema")
        .doesNotContain("sluice-schema-registry-dev");
    List<String> classes = new ArrayList<>();
    for (String artifactId : modules) {
      Path output = modulesByArtifactId.get(artifactId).resolve("target/classes");
      assertThat(output).as("%s's classes; compile it first", artifactId).isDirectory();
      try (Stream<Path> files = Files.walk(output)) {
        files
            .filter(f -> f.toString().endsWith(".class"))
            .forEach(f -> classes.add(artifactId + "!" + output.relativize(f)));
      }
    }
    assertThat(classes)
        .contains("sluice-router!io/sluice/router/RouterMain.class")
        .contains("sluice-schema!io/sluice/schema/wire/WireFormat.class");
    assertThat(classes.stream().filter(SluiceImageContentsTest::ofTheDevRegistry))
        .as("dev registry classes in the image's modules")
        .isEmpty();
  }

  /**
   * The Sluice modules compose/sluice/pom.xml reaches through compile and runtime dependencies, as
   * Maven puts them into lib/: a test, provided or optional dependency of a module is not passed
   * on.
   */
  private static Set<String> sluiceModulesOfTheImage() throws Exception {
    Set<String> reached = new LinkedHashSet<>();
    Deque<Element> pending =
        new ArrayDeque<>(sluiceRuntimeDependencies(pom(COMPOSE.resolve("sluice/pom.xml")), true));
    while (!pending.isEmpty()) {
      String artifactId = text(pending.pop(), "artifactId");
      Path module = modulesByArtifactId.get(artifactId);
      assertThat(module).as("the module of %s", artifactId).isNotNull();
      if (reached.add(artifactId)) {
        pending.addAll(sluiceRuntimeDependencies(pom(module.resolve("pom.xml")), false));
      }
    }
    return reached;
  }

  private static List<Element> sluiceRuntimeDependencies(Element pom, boolean direct) {
    List<Element> found = new ArrayList<>();
    for (Element dependency : children(child(pom, "dependencies"), "dependency")) {
      String scope = text(dependency, "scope");
      if (SLUICE.equals(text(dependency, "groupId"))
          && RUNTIME_SCOPES.contains(scope.isEmpty() ? "compile" : scope)
          && (direct || !"true".equals(text(dependency, "optional")))) {
        found.add(dependency);
      }
    }
    return found;
  }

  private static boolean ofTheDevRegistry(String moduleAndClass) {
    String path = moduleAndClass.substring(moduleAndClass.indexOf('!') + 1);
    String packagePath = path.contains("/") ? path.substring(0, path.lastIndexOf('/')) : "";
    return DEV_REGISTRY_PACKAGE.equals(packagePath.replace('/', '.'));
  }

  private static Element pom(Path file) throws Exception {
    return DocumentBuilderFactory.newInstance()
        .newDocumentBuilder()
        .parse(file.toFile())
        .getDocumentElement();
  }

  /** The first child element named {@code name}, or null. */
  private static Element child(Element parent, String name) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        return e;
      }
    }
    return null;
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    if (parent != null) {
      for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
        if (n instanceof Element e && e.getTagName().equals(name)) {
          found.add(e);
        }
      }
    }
    return found;
  }

  /** The trimmed text of the child element {@code name}, empty when there is none. */
  private static String text(Element parent, String name) {
    Element e = child(parent, name);
    return e == null ? "" : e.getTextContent().trim();
  }
}
