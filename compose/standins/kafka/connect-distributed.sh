#!/bin/sh
# connect-distributed.sh worker.properties: a distributed Connect worker, logging to stdout.
: "${KAFKA_HEAP_OPTS:=-Xms256M -Xmx2G}"
: "${KAFKA_LOG4J_OPTS:=-Dlog4j2.configurationFile=/opt/kafka/config/log4j2.properties}"
export KAFKA_HEAP_OPTS KAFKA_LOG4J_OPTS
exec /opt/kafka/bin/kafka-run-class.sh org.apache.kafka.connect.cli.ConnectDistributed "$@"
