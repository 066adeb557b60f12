# The Fipsen server: a multi-stage build to a small runtime image.
#   podman build --format docker -t fipsen .      (or: docker build -t fipsen .)
#   podman run -d --name fipsen -p 8080:8080 -v fipsen-data:/data fipsen
# The web client (client-web/) is embedded in the binary at build time. docs/OPERATING.md has
# the reverse proxy, backups, upgrades and a systemd unit.

FROM rust:1.95-bookworm AS builder
WORKDIR /src
# The whole workspace is needed to resolve it; only the server is built, without debug
# information (the release profile keeps line tables for profiling: not needed here).
COPY . .
ENV CARGO_PROFILE_RELEASE_DEBUG=false \
    CARGO_PROFILE_RELEASE_STRIP=debuginfo
RUN cargo build --release --locked -p fipsen-server \
 && cp target/release/fipsen-server /usr/local/bin/fipsen-server

# No package is added: the server makes no outgoing connections (no certificates needed), and
# its health check is its own `health` subcommand.
FROM debian:bookworm-slim
RUN groupadd --system --gid 10001 fipsen \
 && useradd --system --uid 10001 --gid fipsen --home-dir /data --shell /usr/sbin/nologin fipsen \
 && mkdir -p /data \
 && chown fipsen:fipsen /data \
 && chmod 700 /data
COPY --from=builder /usr/local/bin/fipsen-server /usr/local/bin/fipsen-server
USER fipsen:fipsen
WORKDIR /data
# The SQLite database and its -wal and -shm files live on this volume, readable by the server's
# user only.
VOLUME ["/data"]
# Set the address with FIPSEN_ADDR, not with --addr: the health check reads the same variable.
ENV FIPSEN_ADDR=0.0.0.0:8080 \
    FIPSEN_DB=/data/fipsen.sqlite3 \
    FIPSEN_LOG_FORMAT=json
EXPOSE 8080
# Asks /healthz over loopback: healthy when the server answers and its storage can write. (OCI
# images have no health check: build with `podman build --format docker`.)
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
  CMD ["/usr/local/bin/fipsen-server", "health", "--timeout", "5"]
# SIGTERM on stop: the server closes sockets with 1012 and exits.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/fipsen-server"]
