//! `baseline`: a bare WebSocket fan-out server with no game logic and no storage, for the load
//! generator to measure beside the Fipsen server (see `fipsen_loadgen::baseline`).

use std::net::SocketAddr;

use clap::Parser;
use fipsen_loadgen::baseline::{BaselineConfig, DEFAULT_UPDATE_BYTES, serve};

/// A bare fan-out server speaking the shapes of the Fipsen protocol.
#[derive(Debug, Parser)]
#[command(name = "baseline", version, about)]
struct Args {
    /// Address and port to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:9100")]
    addr: SocketAddr,
    /// Pad every `update` frame to this many bytes (the real server's mean frame).
    #[arg(long, default_value_t = DEFAULT_UPDATE_BYTES)]
    update_bytes: usize,
    /// Each connection's WebSocket read buffer, bytes (the Fipsen server uses 1 KiB).
    #[arg(long, default_value_t = 1024)]
    read_buffer_bytes: usize,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let listener = match tokio::net::TcpListener::bind(args.addr).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("baseline: cannot listen on {}: {e}", args.addr);
            return std::process::ExitCode::FAILURE;
        }
    };
    match listener.local_addr() {
        Ok(addr) => println!("Baseline listening on http://{addr}"),
        Err(e) => eprintln!("baseline: {e}"),
    }
    tokio::select! {
        () = serve(listener, BaselineConfig { update_bytes: args.update_bytes, read_buffer_bytes: args.read_buffer_bytes }) => {}
        _ = tokio::signal::ctrl_c() => {}
    }
    std::process::ExitCode::SUCCESS
}
