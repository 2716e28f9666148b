# Stand-in for apache/kafka:4.1.1 (scripts/test-compose): Kafka 4.1.1's jars from Maven Central in
# the image's layout (/opt/kafka/libs, /opt/kafka/bin, user appuser), on Debian's JRE. The
# entrypoint is the image's: KafkaDockerWrapper turns KAFKA_* into server.properties and formats
# the storage. The bin/ scripts are the stand-in's own (Kafka ships them only in its
# distribution): the ones compose and the connect image use.
ARG MAVEN_IMAGE=sluice-standin/maven:3.8.7-jdk17
ARG JRE_IMAGE=sluice-standin/jre:17
FROM ${MAVEN_IMAGE} AS jars
COPY kafka/pom.xml /build/pom.xml
RUN --mount=type=cache,target=/root/.m2,sharing=locked \
    mvn -B -q -f /build/pom.xml dependency:copy-dependencies -DincludeScope=runtime \
      -DoutputDirectory=/opt/kafka/libs

FROM ${JRE_IMAGE}
RUN useradd --uid 1000 --user-group --create-home appuser
COPY --from=jars /opt/kafka/libs /opt/kafka/libs
COPY --chmod=755 kafka/kafka-run-class.sh kafka/kafka-server-start.sh kafka/connect-distributed.sh /opt/kafka/bin/
COPY --chmod=755 kafka/run /etc/kafka/docker/run
COPY kafka/log4j2.properties kafka/tools-log4j2.properties /opt/kafka/config/
# The command line tools: one line each, the class of Kafka 4.1's script of the same name.
RUN set -e; cd /opt/kafka/bin; \
    for tool in \
      kafka-topics.sh=org.apache.kafka.tools.TopicCommand \
      kafka-consumer-groups.sh=org.apache.kafka.tools.consumer.group.ConsumerGroupCommand \
      kafka-console-consumer.sh=org.apache.kafka.tools.consumer.ConsoleConsumer \
      kafka-console-producer.sh=org.apache.kafka.tools.ConsoleProducer \
      kafka-broker-api-versions.sh=org.apache.kafka.tools.BrokerApiVersionsCommand \
      kafka-storage.sh=kafka.tools.StorageTool; do \
      printf '#!/bin/sh\nexec /opt/kafka/bin/kafka-run-class.sh %s "$@"\n' "${tool#*=}" > "${tool%%=*}"; \
      chmod 755 "${tool%%=*}"; \
    done; \
    mkdir -p /mnt/shared/config /var/lib/kafka/data; \
    chown appuser:appuser /opt/kafka/config /opt/kafka/config/* /var/lib/kafka/data /mnt/shared/config
ENV PATH=/opt/kafka/bin:$PATH
USER appuser
WORKDIR /opt/kafka
CMD ["/etc/kafka/docker/run"]
