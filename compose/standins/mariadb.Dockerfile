# Stand-in for mysql:8.4.6 (scripts/test-compose): Debian's MariaDB 10.11 (no MySQL server can be
# had here), with an entrypoint that does what the mysql image's does for compose: the init
# scripts on an empty volume, root's password, the server with compose's arguments. Loses the
# MySQL path: the capture runs with connector=mariadb (compose/standins/capture-mariadb.properties).
ARG BASE_IMAGE=sluice-standin/debian:bookworm
FROM ${BASE_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends mariadb-server mariadb-client \
 && rm -rf /var/lib/apt/lists/* /var/lib/mysql/* \
 && mkdir -p /docker-entrypoint-initdb.d
COPY mariadb/90-standin.cnf /etc/mysql/mariadb.conf.d/90-standin.cnf
COPY --chmod=755 mariadb/docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENTRYPOINT ["docker-entrypoint.sh"]
