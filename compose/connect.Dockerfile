# The Kafka Connect worker of compose (context: the repo root): Apache Kafka 4.1.1's own Connect
# runtime with two plugin directories under /opt/connect-plugins:
#   sluice-connect-plugins/  the Sluice plugin zip (upsert sink, RegistryAvroConverter), plus
#                            S3FileIO for its catalog: iceberg-aws with its runtime dependencies
#                            and the AWS SDK bundle (see connect/sluice-plugin-s3/pom.xml);
#   iceberg-kafka-connect/   the Apache Iceberg sink runtime (see connect/iceberg-runtime/pom.xml).
# The base images are build arguments only so that scripts/test-compose can build on stand-ins
# (compose/standins/); compose builds on these defaults.
ARG MAVEN_IMAGE=maven:3.9.11-eclipse-temurin-17
ARG KAFKA_IMAGE=apache/kafka:4.1.1
FROM ${MAVEN_IMAGE} AS build
WORKDIR /src
# Every module's pom must be there for the reactor; the .dockerignore beside this file
# leaves out build output and local state.
COPY . .
# One build at a time on the Maven cache (locked), so two image builds never race on it.
RUN --mount=type=cache,target=/root/.m2,sharing=locked \
    mvn -B -q -DskipTests -Dspotless.check.skip=true -pl connect-plugins -am package \
 && mvn -B -q -f compose/connect/iceberg-runtime/pom.xml dependency:copy-dependencies \
      -DincludeScope=runtime -DexcludeGroupIds=org.slf4j \
      -DoutputDirectory=/opt/connect-plugins/iceberg-kafka-connect/lib \
 && mkdir -p /opt/connect-plugins \
 && cd /opt/connect-plugins \
 && jar xf /src/connect-plugins/target/sluice-connect-plugins-*-plugin.zip \
 && mvn -B -q -f /src/compose/connect/sluice-plugin-s3/pom.xml dependency:copy-dependencies \
      -DincludeScope=runtime -DexcludeGroupIds=org.slf4j \
      -DoutputDirectory=/opt/connect-plugins/sluice-connect-plugins/lib

FROM ${KAFKA_IMAGE}
USER root
# curl for the healthcheck and the connector registration (compose service connect-init): apk on
# the apache/kafka image (Alpine), apt-get on a Debian-based one (the stand-in of test-compose).
RUN if command -v apk >/dev/null; then \
      apk add --no-cache curl; \
    else \
      apt-get update && apt-get install -y --no-install-recommends curl \
      && rm -rf /var/lib/apt/lists/*; \
    fi
COPY --from=build --chown=appuser:appuser /opt/connect-plugins /opt/connect-plugins
USER appuser
ENV KAFKA_HEAP_OPTS="-Xmx768m"
ENTRYPOINT ["/opt/kafka/bin/connect-distributed.sh"]
CMD ["/etc/sluice/connect-distributed.properties"]
