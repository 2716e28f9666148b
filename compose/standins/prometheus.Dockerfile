# Stand-in for prom/prometheus:v3.5.0 (scripts/test-compose): Debian's Prometheus 2.42 with the
# upstream image's entrypoint, arguments, user and directories; wget for compose's healthcheck.
ARG BASE_IMAGE=sluice-standin/debian:bookworm
FROM ${BASE_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends prometheus wget \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /prometheus \
 && chown nobody:nogroup /prometheus
USER nobody
WORKDIR /prometheus
ENTRYPOINT ["/usr/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]
