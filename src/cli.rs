//! Command-line arguments and dispatch. Holds no logic of its own: each subcommand hands off to
//! the module that owns the work.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "capa-tui",
    version,
    about = "A terminal tutor for how Argo CD really decides things"
)]
pub struct Cli {
    /// Start the embedded lab cluster in-process and work against it.
    #[arg(long)]
    pub sim: bool,
    /// With --sim: run the cluster's clock this many times faster than real time.
    #[arg(long, default_value_t = 1.0)]
    pub speed: f64,
    /// With --sim: keep the cluster's objects here across runs.
    #[arg(long)]
    pub state_dir: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The embedded lab cluster (a Kubernetes API server with Argo CD on loopback).
    #[command(subcommand)]
    Sim(SimCommand),
}

#[derive(Debug, Subcommand)]
pub enum SimCommand {
    /// Serve the embedded lab cluster until interrupted (Ctrl-C or SIGTERM).
    Serve(ServeArgs),
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Loopback address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:0")]
    pub listen: SocketAddr,
    /// Keep the cluster's objects here across restarts (memory only when absent).
    #[arg(long)]
    pub state_dir: Option<PathBuf>,
    /// Run the cluster's clock this many times faster than real time.
    #[arg(long, default_value_t = 1.0)]
    pub speed: f64,
    /// Write a kubeconfig for the cluster here once it is serving.
    #[arg(long)]
    pub kubeconfig_out: PathBuf,
}

/// Runs the parsed command; returns the process exit code.
pub async fn run(cli: Cli) -> i32 {
    match cli.command {
        Some(Command::Sim(SimCommand::Serve(args))) => serve(args).await,
        None => {
            eprintln!(
                "capa-tui: the tutor is not built yet; run `capa-tui sim serve --kubeconfig-out FILE` for the embedded lab cluster"
            );
            2
        }
    }
}

async fn serve(args: ServeArgs) -> i32 {
    let config = crate::sim::Config {
        listen: args.listen,
        state_dir: args.state_dir.clone(),
        speed: args.speed,
    };
    let handle = match crate::sim::start(config).await {
        Ok(h) => h,
        Err(e) => {
            eprintln!("capa-tui sim serve: {e}");
            return 1;
        }
    };
    if let Err(e) = handle.write_kubeconfig(&args.kubeconfig_out) {
        eprintln!("capa-tui sim serve: {e}");
        handle.shutdown().await;
        return 1;
    }
    println!("embedded lab cluster serving at {}", handle.url());
    println!("kubeconfig: {}", args.kubeconfig_out.display());
    println!(
        "try: KUBECONFIG={} kubectl get namespaces",
        args.kubeconfig_out.display()
    );
    if let Some(dir) = &args.state_dir {
        println!("state dir: {}", dir.display());
    }
    wait_for_stop_signal().await;
    println!("stopping the embedded lab cluster...");
    handle.shutdown().await;
    0
}

async fn wait_for_stop_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).ok();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = async { match term.as_mut() { Some(t) => { t.recv().await; } None => std::future::pending::<()>().await } } => {}
    }
}
