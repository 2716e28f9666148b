# Stand-in for quay.io/minio/mc (scripts/test-compose): compose's two mc calls (`mc ready`,
# `mc mb --ignore-existing`) as a curl script, on the debootstrap base (which has curl).
ARG BASE_IMAGE=sluice-standin/debian:bookworm
FROM ${BASE_IMAGE}
COPY --chmod=755 mc/mc /usr/bin/mc
ENTRYPOINT ["mc"]
