//! `fipsen-server`: see `--help`, README.md ("Server configuration") and docs/PROTOCOL.md.

use clap::Parser;
use fipsen_server::config::{Command, Config, LogFormat};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let config = Config::parse();
    if let Some(Command::Health { timeout }) = config.command {
        return health(&config, timeout);
    }
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(&config.log));
    let logs = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    match config.log_format {
        LogFormat::Json => logs.json().init(),
        LogFormat::Text => logs.init(),
    }
    raise_open_file_limit();
    match fipsen_server::run(config, shutdown_signal()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "the server cannot run");
            std::process::ExitCode::FAILURE
        }
    }
}

/// `fipsen-server health`: 0 when the server at `--addr` is healthy, 1 when not.
fn health(config: &Config, timeout: u64) -> std::process::ExitCode {
    match fipsen_server::health::probe(config.addr, std::time::Duration::from_secs(timeout)) {
        Ok(answer) => {
            println!("healthy: {answer}");
            std::process::ExitCode::SUCCESS
        }
        Err(reason) => {
            eprintln!("unhealthy: {reason}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Every socket is a file descriptor, and the usual soft limit (often 1024) is far below what
/// the server can hold; the hard limit is what the operator allows. Raised as far as it goes.
fn raise_open_file_limit() {
    #[cfg(unix)]
    {
        use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
        let limit = getrlimit(Resource::Nofile);
        // Linux takes at most its `nr_open` (2^20 by default) even when the hard limit is unlimited.
        let wanted = limit.maximum.unwrap_or(1 << 20);
        if limit.current.is_some_and(|current| current < wanted) {
            let raised = Rlimit { current: Some(wanted), maximum: limit.maximum };
            match setrlimit(Resource::Nofile, raised) {
                Ok(()) => tracing::debug!(from = limit.current, to = wanted, "raised the open-file limit"),
                Err(e) => tracing::debug!(error = %e, "cannot raise the open-file limit"),
            }
        }
    }
}

/// SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}
