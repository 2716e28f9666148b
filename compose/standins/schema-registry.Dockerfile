# Stand-in for confluentinc/cp-schema-registry:8.0.0 (scripts/test-compose; context: the repo root):
# Sluice's dev schema registry (module schema-registry-dev), Confluent's REST API for what Sluice
# uses of it, schemas in a Kafka topic. Loses Confluent's own registry.
ARG MAVEN_IMAGE=sluice-standin/maven:3.8.7-jdk17
ARG JRE_IMAGE=sluice-standin/jre:17
FROM ${MAVEN_IMAGE} AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2,sharing=locked \
    mvn -B -q -DskipTests -Dspotless.check.skip=true -pl schema-registry-dev -am install \
 && mvn -B -q -f compose/standins/schema-registry/pom.xml dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory=/opt/registry/lib

FROM ${JRE_IMAGE}
COPY --from=build /opt/registry/lib /opt/registry/lib
COPY --chmod=755 compose/standins/schema-registry/registry /usr/bin/schema-registry
ENV JAVA_OPTS=-Xmx256m
CMD ["schema-registry"]
