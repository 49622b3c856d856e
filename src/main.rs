//! The `capa-tui` binary: parses arguments and hands off to `capa_tui::cli`.

use clap::Parser;

#[tokio::main]
async fn main() {
    let cli = capa_tui::cli::Cli::parse();
    std::process::exit(capa_tui::cli::run(cli).await);
}
