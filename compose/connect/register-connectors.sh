#!/usr/bin/env bash
# compose service connect-init: creates the Apache sink's control topic, waits until the router
# has created the clean topic, then creates or updates both sinks through Connect's REST API
# (PUT /connectors/<name>/config changes nothing when the config is the same) and waits until
# each connector and its task run. Exits non-zero, naming what failed, after ~3 minutes.
set -euo pipefail
BOOTSTRAP=kafka:19092
CONNECT=http://connect:8083
CLEAN_TOPIC=broker.cdc_lab.orders.clean
CONTROL_TOPIC=_sluice-iceberg-control
TOPICS=/opt/kafka/bin/kafka-topics.sh

$TOPICS --bootstrap-server "$BOOTSTRAP" --create --if-not-exists --topic "$CONTROL_TOPIC" \
  --partitions 1 --replication-factor 1

for _ in $(seq 1 90); do
  if $TOPICS --bootstrap-server "$BOOTSTRAP" --list | grep -qx "$CLEAN_TOPIC"; then
    break
  fi
  echo "connect-init: waiting for the router to create $CLEAN_TOPIC"
  sleep 2
done
$TOPICS --bootstrap-server "$BOOTSTRAP" --list | grep -qx "$CLEAN_TOPIC" \
  || { echo "connect-init: $CLEAN_TOPIC does not exist (is the router running?)" >&2; exit 1; }

for name in sluice-upsert-sink sluice-changelog-sink; do
  curl -fsS -X PUT -H 'Content-Type: application/json' \
    --data @"/etc/sluice/connectors/$name.json" "$CONNECT/connectors/$name/config" >/dev/null
  echo "connect-init: $name configured"
done

for name in sluice-upsert-sink sluice-changelog-sink; do
  for _ in $(seq 1 60); do
    status="$(curl -fsS "$CONNECT/connectors/$name/status" || true)"
    running="$(grep -o '"state":"RUNNING"' <<<"$status" | wc -l)"
    # The connector's state and its one task's.
    if [ "$running" -ge 2 ]; then
      echo "connect-init: $name RUNNING"
      continue 2
    fi
    if grep -q '"state":"FAILED"' <<<"$status"; then
      echo "connect-init: $name FAILED: $status" >&2
      exit 1
    fi
    sleep 2
  done
  echo "connect-init: $name not RUNNING after 120 s: $status" >&2
  exit 1
done
