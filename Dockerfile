# The Fipsen server: a multi-stage build to a small runtime image.
#   docker build -t fipsen .
#   docker run -p 8080:8080 -v fipsen-data:/data fipsen
# The web client (client-web/) is embedded in the binary at build time.

FROM rust:1.95-bookworm AS builder
WORKDIR /src
# The whole workspace is needed to resolve it; only the server is built.
COPY . .
RUN cargo build --release --locked -p fipsen-server \
 && cp target/release/fipsen-server /usr/local/bin/fipsen-server

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 fipsen \
 && useradd --system --uid 10001 --gid fipsen --home-dir /data --shell /usr/sbin/nologin fipsen \
 && mkdir -p /data \
 && chown fipsen:fipsen /data
COPY --from=builder /usr/local/bin/fipsen-server /usr/local/bin/fipsen-server
USER fipsen:fipsen
WORKDIR /data
# The SQLite database (and its WAL files) live on this volume; keep it private.
VOLUME ["/data"]
ENV FIPSEN_ADDR=0.0.0.0:8080 \
    FIPSEN_DB=/data/fipsen.sqlite3 \
    FIPSEN_LOG_FORMAT=json
EXPOSE 8080
# Docker sends SIGTERM on stop: the server closes sockets with 1012 and exits.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/fipsen-server"]
