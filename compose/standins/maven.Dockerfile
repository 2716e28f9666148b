# Stand-in for maven:3.9-eclipse-temurin-17 (scripts/test-compose): Debian's OpenJDK 17 and Maven
# 3.8.7, with a global settings.xml that mirrors Maven Central to the repository scripts/test-compose
# serves from the host (the build's containers resolve no outside name).
ARG JRE_IMAGE=sluice-standin/jre:17
FROM ${JRE_IMAGE}
ARG REPOSITORY_URL
RUN test -n "$REPOSITORY_URL" \
 && apt-get update \
 && apt-get install -y --no-install-recommends openjdk-17-jdk-headless maven \
 && rm -rf /var/lib/apt/lists/*
COPY maven/settings.xml /etc/maven/settings.xml
RUN sed -i "s|@REPOSITORY_URL@|${REPOSITORY_URL}|" /etc/maven/settings.xml
