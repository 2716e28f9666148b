# Stand-in for eclipse-temurin:17-jre (scripts/test-compose): Debian's OpenJDK 17 JRE on the
# debootstrap base. wget for healthchecks written for upstream images that have it.
ARG BASE_IMAGE=sluice-standin/debian:bookworm
FROM ${BASE_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends openjdk-17-jre-headless wget \
 && rm -rf /var/lib/apt/lists/*
