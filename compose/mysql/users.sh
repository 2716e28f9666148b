#!/bin/bash
# Runs once, on the first start of the mysql service, after init.sql (docker-entrypoint-initdb.d
# sources it, so docker_process_sql is the entrypoint's own client with the root password).
# The passwords come from compose/.env through the service's environment; scripts/setup writes
# them alphanumeric, so they need no quoting in SQL. Sourced: the entrypoint's set -eo pipefail
# holds, and exit 1 ends the initialization.

for var in SLUICE_MYSQL_PASSWORD SLUICE_CDC_PASSWORD; do
  if [[ ! "${!var:-}" =~ ^[A-Za-z0-9]+$ ]]; then
    echo "users.sh: $var is empty or not alphanumeric (see compose/.env)" >&2
    exit 1
  fi
done
docker_process_sql <<-EOSQL
	-- Applications (sluice load, sluice verify, sluice reconcile).
	CREATE USER IF NOT EXISTS 'sluice'@'%' IDENTIFIED BY '${SLUICE_MYSQL_PASSWORD}';
	GRANT ALL PRIVILEGES ON cdc_lab.* TO 'sluice'@'%';

	-- The capture (Debezium MySQL connector): snapshot reads and the binlog.
	CREATE USER IF NOT EXISTS 'cdc'@'%' IDENTIFIED BY '${SLUICE_CDC_PASSWORD}';
	GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, REPLICATION CLIENT, LOCK TABLES
	  ON *.* TO 'cdc'@'%';

	FLUSH PRIVILEGES;
EOSQL
