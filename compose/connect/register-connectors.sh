#!/usr/bin/env bash
# compose service connect-init: creates the Apache sink's control topic and gives its commit
# coordinator's group a start offset, creates the sinks' namespace in the REST catalog, waits
# until Connect's REST API answers, then creates or updates both sinks (PUT
# /connectors/<name>/config; Connect restarts a connector on every PUT, even of the same config)
# and waits until each connector and its task run. The sinks follow every
# clean topic by regex (topics.regex), so no clean topic has to exist yet: on a fresh stack with an
# empty source table there is none. Exits non-zero, naming what failed, after SLUICE_INIT_TIMEOUT.
#
# Environment (the defaults are compose's; ComposeRegisterConnectorsIT points them elsewhere):
#   SLUICE_CONNECT_URL      Connect's REST API              (http://connect:8083)
#   SLUICE_BOOTSTRAP        Kafka bootstrap servers         (kafka:19092)
#   SLUICE_CONNECTORS_DIR   <connector name>.json files     (/etc/sluice/connectors)
#   SLUICE_KAFKA_BIN        kafka-topics.sh and kafka-consumer-groups.sh (/opt/kafka/bin)
#   SLUICE_CATALOG_URL      the sinks' Iceberg REST catalog (http://iceberg-rest:8181; empty: none)
#   SLUICE_NAMESPACES       namespaces to create there before the sinks run (cdc_lab)
#   SLUICE_INIT_TIMEOUT     seconds to wait for Connect, and for each connector (180)
#   SLUICE_POLL_INTERVAL    seconds between two polls (2)
set -euo pipefail
CONNECT=${SLUICE_CONNECT_URL:-http://connect:8083}
BOOTSTRAP=${SLUICE_BOOTSTRAP:-kafka:19092}
CONNECTORS_DIR=${SLUICE_CONNECTORS_DIR:-/etc/sluice/connectors}
KAFKA_BIN=${SLUICE_KAFKA_BIN:-/opt/kafka/bin}
CATALOG=${SLUICE_CATALOG_URL-http://iceberg-rest:8181}
NAMESPACES=${SLUICE_NAMESPACES-cdc_lab}
TIMEOUT=${SLUICE_INIT_TIMEOUT:-180}
POLL=${SLUICE_POLL_INTERVAL:-2}
CONNECTORS=(sluice-upsert-sink sluice-changelog-sink)
CONTROL_TOPIC=_sluice-iceberg-control
# <connect group>-coord, the connect group being connect-<connector> (Iceberg 1.12).
COORDINATOR_GROUP=connect-sluice-changelog-sink-coord

fail() {
  echo "connect-init: $*" >&2
  exit 1
}

for name in "${CONNECTORS[@]}"; do
  [ -r "$CONNECTORS_DIR/$name.json" ] || fail "no connector config $CONNECTORS_DIR/$name.json"
done

"$KAFKA_BIN/kafka-topics.sh" --bootstrap-server "$BOOTSTRAP" --create --if-not-exists \
  --topic "$CONTROL_TOPIC" --partitions 1 --replication-factor 1

# The Apache sink's commit coordinator reads the control topic in this group and commits its
# offsets only after a table commit. Without a committed offset it starts at the topic's end, and
# the data files a worker announced before the first table commit are skipped while the worker's
# source offsets have moved past their records: they never reach the changelog. So the group
# starts at the beginning of the topic, once, before the connector first runs (Iceberg drops the
# files a snapshot already holds). A group that has offsets, or members, is left alone. This
# needs the control topic only, no clean topic.
described="$("$KAFKA_BIN/kafka-consumer-groups.sh" --bootstrap-server "$BOOTSTRAP" --describe \
  --offsets --group "$COORDINATOR_GROUP" 2>/dev/null || true)"
if ! grep -q "$CONTROL_TOPIC" <<<"$described"; then
  "$KAFKA_BIN/kafka-consumer-groups.sh" --bootstrap-server "$BOOTSTRAP" --reset-offsets \
    --to-earliest --execute --group "$COORDINATOR_GROUP" --topic "$CONTROL_TOPIC" >/dev/null
  echo "connect-init: $COORDINATOR_GROUP starts at the beginning of $CONTROL_TOPIC"
fi

# http METHOD URL [curl args...]: the response body in $body and the HTTP status in $code, "000"
# when nothing answered. Never fails, so that no poll can end the script through set -e.
body=""
code=""
http() {
  local method=$1 url=$2 out
  shift 2
  out="$(curl -sS -X "$method" -w '\n%{http_code}' "$@" "$url" 2>/dev/null)" || true
  code="${out##*$'\n'}"
  body="${out%$'\n'*}"
  [[ "$code" =~ ^[0-9]{3}$ ]] || { code=000; body=""; }
}

# How often $2 occurs in $1, counted in bash: no grep whose "no match" exit status pipefail turns
# into a failure.
occurrences() {
  local rest=${1//"$2"/}
  echo $(((${#1} - ${#rest}) / ${#2}))
}

# Both sinks create the namespace of their first table when it is missing, on a fresh stack at the
# same moment. The REST fixture's JdbcCatalog answered the loser with HTTP 500 (a primary key
# violation on SQLite), not 409, and the Apache sink's task died of it ("will not recover until
# manually restarted"; seen in a real compose run). So the namespaces exist before a sink runs.
for namespace in $NAMESPACES; do
  [ -n "$CATALOG" ] || break
  deadline=$((SECONDS + TIMEOUT))
  while true; do
    http POST "$CATALOG/v1/namespaces" -H 'Content-Type: application/json' \
      --data "{\"namespace\":[\"$namespace\"]}"
    case "$code" in
      200) echo "connect-init: created the namespace $namespace in $CATALOG"; break ;;
      409) echo "connect-init: the namespace $namespace exists in $CATALOG"; break ;;
      000) ;;
      *) fail "creating the namespace $namespace in $CATALOG: HTTP $code: $body" ;;
    esac
    [ "$SECONDS" -lt "$deadline" ] || fail "the catalog at $CATALOG did not answer within $TIMEOUT s"
    sleep "$POLL"
  done
done

deadline=$((SECONDS + TIMEOUT))
until http GET "$CONNECT/connectors" && [ "$code" = 200 ]; do
  [ "$SECONDS" -lt "$deadline" ] || fail "Connect at $CONNECT did not answer within $TIMEOUT s (last HTTP status $code)"
  echo "connect-init: waiting for Connect at $CONNECT (HTTP $code)"
  sleep "$POLL"
done

for name in "${CONNECTORS[@]}"; do
  http PUT "$CONNECT/connectors/$name/config" -H 'Content-Type: application/json' \
    --data @"$CONNECTORS_DIR/$name.json"
  case "$code" in
    200 | 201) echo "connect-init: $name configured" ;;
    *) fail "PUT $name config: HTTP $code: $body" ;;
  esac
done

for name in "${CONNECTORS[@]}"; do
  deadline=$((SECONDS + TIMEOUT))
  state="no status yet"
  while true; do
    http GET "$CONNECT/connectors/$name/status"
    if [ "$code" = 200 ]; then
      # The connector's state and each task's; the status has no task before the first one
      # is assigned, so "every state RUNNING" needs at least two of them.
      states=$(occurrences "$body" '"state":"')
      running=$(occurrences "$body" '"state":"RUNNING"')
      if [ "$(occurrences "$body" '"state":"FAILED"')" -gt 0 ]; then
        fail "$name FAILED: $body"
      fi
      if [ "$running" -ge 2 ] && [ "$running" -eq "$states" ]; then
        echo "connect-init: $name RUNNING"
        break
      fi
      state="$running of $states states RUNNING"
    else
      # 404 "No status found" until the worker wrote the first status, or no answer at all.
      state="HTTP $code"
    fi
    [ "$SECONDS" -lt "$deadline" ] || fail "$name not RUNNING after $TIMEOUT s ($state)"
    sleep "$POLL"
  done
done
