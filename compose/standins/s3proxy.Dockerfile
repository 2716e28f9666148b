# Stand-in for quay.io/minio/minio (scripts/test-compose): S3Proxy 4.1.0 from Maven Central (2.6.0
# fails Iceberg's AWS SDK checksums), a filesystem backend on /data, and the mc stand-in for the
# healthcheck's `mc ready local`.
ARG MAVEN_IMAGE=sluice-standin/maven:3.8.7-jdk17
ARG JRE_IMAGE=sluice-standin/jre:17
FROM ${MAVEN_IMAGE} AS jar
RUN --mount=type=cache,target=/root/.m2,sharing=locked \
    mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
      -Dartifact=org.gaul:s3proxy:4.1.0:jar:jar-with-dependencies -DoutputDirectory=/opt/s3proxy \
 && mv /opt/s3proxy/s3proxy-4.1.0-jar-with-dependencies.jar /opt/s3proxy/s3proxy.jar

FROM ${JRE_IMAGE}
COPY --from=jar /opt/s3proxy/s3proxy.jar /opt/s3proxy/s3proxy.jar
COPY --chmod=755 s3proxy/s3proxy-server /usr/bin/s3proxy-server
COPY --chmod=755 mc/mc /usr/bin/mc
RUN mkdir /data
ENV JAVA_OPTS=-Xmx256m
ENTRYPOINT ["s3proxy-server"]
