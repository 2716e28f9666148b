#!/usr/bin/env bash
# compose service connect-init: creates the Apache sink's control topic and gives its commit
# coordinator's group a start offset, waits until the router has created the clean topic, then
# creates or updates both sinks through Connect's REST API (PUT /connectors/<name>/config; Connect
# restarts a connector on every PUT, even of the same config) and waits until each connector and
# its task run. Exits non-zero, naming what failed, after ~3 minutes.
set -euo pipefail
BOOTSTRAP=kafka:19092
CONNECT=http://connect:8083
CLEAN_TOPIC=broker.cdc_lab.orders.clean
CONTROL_TOPIC=_sluice-iceberg-control
TOPICS=/opt/kafka/bin/kafka-topics.sh
CONSUMER_GROUPS=/opt/kafka/bin/kafka-consumer-groups.sh
# <connect group>-coord, the connect group being connect-<connector> (Iceberg 1.12).
COORDINATOR_GROUP=connect-sluice-changelog-sink-coord

$TOPICS --bootstrap-server "$BOOTSTRAP" --create --if-not-exists --topic "$CONTROL_TOPIC" \
  --partitions 1 --replication-factor 1

# The Apache sink's commit coordinator reads the control topic in this group and commits its
# offsets only after a table commit. Without a committed offset it starts at the topic's end, and
# the data files a worker announced before the first table commit are skipped while the worker's
# source offsets have moved past their records: they never reach the changelog. So the group
# starts at the beginning of the topic, once, before the connector first runs (Iceberg drops the
# files a snapshot already holds). A group that has offsets, or members, is left alone.
described="$($CONSUMER_GROUPS --bootstrap-server "$BOOTSTRAP" --describe --offsets \
  --group "$COORDINATOR_GROUP" 2>/dev/null || true)"
if ! grep -q "$CONTROL_TOPIC" <<<"$described"; then
  $CONSUMER_GROUPS --bootstrap-server "$BOOTSTRAP" --reset-offsets --to-earliest --execute \
    --group "$COORDINATOR_GROUP" --topic "$CONTROL_TOPIC"
  echo "connect-init: $COORDINATOR_GROUP starts at the beginning of $CONTROL_TOPIC"
fi

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
