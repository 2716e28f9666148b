#!/bin/sh
# kafka-server-start.sh server.properties: the broker, logging to stdout.
: "${KAFKA_HEAP_OPTS:=-Xmx1G -Xms1G}"
: "${KAFKA_LOG4J_OPTS:=-Dlog4j2.configurationFile=/opt/kafka/config/log4j2.properties}"
export KAFKA_HEAP_OPTS KAFKA_LOG4J_OPTS
exec /opt/kafka/bin/kafka-run-class.sh kafka.Kafka "$@"
