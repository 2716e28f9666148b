# Stand-in for apache/iceberg-rest-fixture:1.10.1 (scripts/test-compose): the same server, the main
# jar of org.apache.iceberg:iceberg-open-api:1.10.1 (RESTCatalogServer, with S3FileIO and SQLite),
# configured by the CATALOG_* variables; user iceberg (uid 1000) with its home /home/iceberg as in
# the upstream image.
ARG MAVEN_IMAGE=sluice-standin/maven:3.8.7-jdk17
ARG JRE_IMAGE=sluice-standin/jre:17
FROM ${MAVEN_IMAGE} AS jar
RUN --mount=type=cache,target=/root/.m2,sharing=locked \
    mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
      -Dartifact=org.apache.iceberg:iceberg-open-api:1.10.1 -DoutputDirectory=/opt/iceberg \
 && mv /opt/iceberg/iceberg-open-api-1.10.1.jar /opt/iceberg/iceberg-rest-catalog.jar

FROM ${JRE_IMAGE}
RUN useradd --uid 1000 --user-group --create-home iceberg
COPY --from=jar /opt/iceberg/iceberg-rest-catalog.jar /opt/iceberg/iceberg-rest-catalog.jar
USER iceberg
WORKDIR /home/iceberg
ENV JAVA_OPTS=-Xmx384m
CMD ["sh", "-c", "exec java $JAVA_OPTS -jar /opt/iceberg/iceberg-rest-catalog.jar"]
