#!/bin/bash
# Stand-in for the mysql image's entrypoint (scripts/test-compose), on MariaDB: on the first start
# of an empty /var/lib/mysql it creates the system tables, runs /docker-entrypoint-initdb.d/*.sql
# and sources *.sh (with the image's docker_process_sql) on a server without networking, then
# gives root the password of MYSQL_ROOT_PASSWORD (root@localhost and root@'%', as the mysql image
# does); then the server runs with the arguments compose passes (binlog options).
set -eo pipefail
DATADIR=/var/lib/mysql
SOCKET=/run/mysqld/mysqld.sock

# The mysql image's helper: SQL from stdin (or its arguments) as root over the socket.
docker_process_sql() {
  mariadb --protocol=socket --socket="$SOCKET" -uroot "$@"
}

mkdir -p /run/mysqld
chown mysql:mysql /run/mysqld "$DATADIR"

if [ ! -d "$DATADIR/mysql" ]; then
  if [[ ! "${MYSQL_ROOT_PASSWORD:-}" =~ ^[A-Za-z0-9]+$ ]]; then
    echo "mariadb (stand-in): MYSQL_ROOT_PASSWORD is empty or not alphanumeric" >&2
    exit 1
  fi
  echo "mariadb (stand-in): initializing $DATADIR"
  mariadb-install-db --user=mysql --datadir="$DATADIR" --skip-test-db >/dev/null
  mariadbd --user=mysql --datadir="$DATADIR" --socket="$SOCKET" --skip-networking "$@" &
  pid=$!
  for _ in $(seq 60); do
    mariadb-admin --socket="$SOCKET" -uroot ping >/dev/null 2>&1 && break
    sleep 1
  done
  mariadb-admin --socket="$SOCKET" -uroot ping >/dev/null
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sql) echo "mariadb (stand-in): running $f"; docker_process_sql <"$f" ;;
      *.sh) echo "mariadb (stand-in): sourcing $f"; . "$f" ;;
      *) echo "mariadb (stand-in): ignoring $f" ;;
    esac
  done
  docker_process_sql <<-EOSQL
	ALTER USER 'root'@'localhost' IDENTIFIED BY '${MYSQL_ROOT_PASSWORD}';
	CREATE USER IF NOT EXISTS 'root'@'%' IDENTIFIED BY '${MYSQL_ROOT_PASSWORD}';
	GRANT ALL PRIVILEGES ON *.* TO 'root'@'%' WITH GRANT OPTION;
	FLUSH PRIVILEGES;
EOSQL
  MYSQL_PWD="$MYSQL_ROOT_PASSWORD" mariadb-admin --socket="$SOCKET" -uroot shutdown
  wait "$pid"
  echo "mariadb (stand-in): initialized"
fi

exec mariadbd --user=mysql --datadir="$DATADIR" --socket="$SOCKET" "$@"
