# Shared by the scripts in scripts/: finds the Sluice checkout, (re)builds the CLI jar, its lib/
# and the Connect worker's layout (cli/target/connect-*) when they are missing or older than any
# pom.xml or source file, and sets SLUICE_CLASSPATH from the build's classpath.txt.
# Source it; do not run it.

SLUICE_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export SLUICE_HOME

sluice_cli_jar() {
  local jar
  for jar in "$SLUICE_HOME"/cli/target/sluice-cli-*.jar; do
    case "$jar" in
      *-sources.jar | *-tests.jar | *-javadoc.jar) ;;
      *) [ -f "$jar" ] && { printf '%s\n' "$jar"; return 0; } ;;
    esac
  done
  return 1
}

# True when a pom.xml or anything under a src/ folder is newer than the last build.
sluice_sources_changed() {
  local stamp="$1"
  [ -n "$(find "$SLUICE_HOME" \
    \( -name .git -o -name target -o -name .sluice -o -name node_modules \) -prune -o \
    \( -name pom.xml -o -path '*/src/*' \) -type f -newer "$stamp" -print -quit)" ]
}

sluice_build_if_needed() {
  local target="$SLUICE_HOME/cli/target"
  local stamp="$target/.sluice-build-stamp"
  # The Connect worker's layout too: a build older than it has a stamp but no connect-plugins/.
  if sluice_cli_jar >/dev/null && [ -f "$target/classpath.txt" ] && [ -f "$stamp" ] \
    && [ -f "$target/connect-worker.classpath" ] && [ -d "$target/connect-plugins" ] \
    && [ -d "$target/connect-launcher" ] && ! sluice_sources_changed "$stamp"; then
    return 0
  fi
  echo "sluice: building the CLI jar (mvn package -pl cli -am) ..." >&2
  # Mark the start: a file edited during the build is newer than the stamp and rebuilds next time.
  local started log
  started="$(mktemp)"
  log="$(mktemp)"
  if ! (cd "$SLUICE_HOME" && ${MVN:-mvn} -q -B -Dstyle.color=never -DskipTests \
    -Dspotless.check.skip=true -pl cli -am package >"$log" 2>&1); then
    cat "$log" >&2
    rm -f "$started" "$log"
    echo "sluice: build failed (output above)" >&2
    exit 1
  fi
  rm -f "$log"
  mkdir -p "$target"
  mv "$started" "$stamp"
}

sluice_build_if_needed
# The build's exact dependency list (lib/ may also hold jars of older builds).
SLUICE_CLASSPATH="$(sluice_cli_jar):$(cat "$SLUICE_HOME/cli/target/classpath.txt")"
SLUICE_JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
