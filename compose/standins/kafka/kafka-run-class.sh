#!/bin/sh
# kafka-run-class.sh CLASS [ARGS...]: java with the jars of /opt/kafka/libs, reading the variables
# Kafka's own script reads (KAFKA_HEAP_OPTS, KAFKA_JVM_PERFORMANCE_OPTS, KAFKA_OPTS,
# KAFKA_LOG4J_OPTS). Written for the stand-in: Kafka's scripts ship in its distribution, not on
# Maven Central. The tools log warnings to stderr unless KAFKA_LOG4J_OPTS says otherwise.
: "${KAFKA_HEAP_OPTS:=-Xmx256m}"
: "${KAFKA_JVM_PERFORMANCE_OPTS:=-XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true}"
: "${KAFKA_LOG4J_OPTS:=-Dlog4j2.configurationFile=/opt/kafka/config/tools-log4j2.properties}"
# Word splitting of the option variables is meant, as in Kafka's script.
# shellcheck disable=SC2086
exec java $KAFKA_HEAP_OPTS $KAFKA_JVM_PERFORMANCE_OPTS $KAFKA_OPTS $KAFKA_LOG4J_OPTS \
  -cp '/opt/kafka/libs/*' "$@"
