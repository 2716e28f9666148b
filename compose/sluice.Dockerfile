# The Sluice image of the router, the capture and the monitor, built from this repository (context:
# the repo root). One image, three services: compose picks the main class. It also carries the
# operator's `sluice` command (dlq, reconcile, table, monitor): /usr/local/bin/sluice.
# The base images are build arguments only so that scripts/test-compose can build on stand-ins
# (compose/standins/); compose builds on these defaults.
ARG MAVEN_IMAGE=maven:3.9.11-eclipse-temurin-17
ARG JRE_IMAGE=eclipse-temurin:17.0.16_8-jre
FROM ${MAVEN_IMAGE} AS build
WORKDIR /src
# Every module's pom must be there for the reactor; the .dockerignore beside this file
# leaves out build output and local state.
COPY . .
# One build at a time on the Maven cache (locked), so two image builds never race on it.
RUN --mount=type=cache,target=/root/.m2,sharing=locked \
    mvn -B -q -DskipTests -Dspotless.check.skip=true -pl router,capture,tools -am install \
 && mvn -B -q -f compose/sluice/pom.xml dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory=/opt/sluice/lib

FROM ${JRE_IMAGE}
# curl for the compose healthchecks.
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/sluice
COPY --from=build /opt/sluice/lib lib
COPY compose/sluice/logback.xml conf/logback.xml
COPY --chmod=755 compose/sluice/sluice /usr/local/bin/sluice
ENV JAVA_OPTS="-Xmx384m"
# "lib/*" is expanded by java itself, so the shell must not glob it.
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -Dlogback.configurationFile=/opt/sluice/conf/logback.xml -cp 'lib/*' \"$@\"", "sluice"]
CMD ["io.sluice.router.RouterMain", "/etc/sluice/router.properties"]
