//! The `hedge` binary: the command line (and, later, the editor).

mod cli;

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = cli::Cli::parse();
    match cli::main_with(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            // one line: the root cause is already a full sentence with the path last
            eprintln!("error: {}", e.root_cause());
            std::process::ExitCode::FAILURE
        }
    }
}
