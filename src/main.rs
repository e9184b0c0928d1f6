//! The `hedge` binary: the command line, and (with the default `gui` feature) the editor when no
//! subcommand is given.

mod cli;

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = cli::Cli::parse();
    #[cfg(feature = "gui")]
    if cli.command.is_none() {
        return match hedge::app::run() {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(line) => {
                say(&line);
                std::process::ExitCode::FAILURE
            }
        };
    }
    match cli::main_with(cli) {
        Ok(()) => {
            cli::flush_warnings();
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            cli::drop_warnings();
            // one line: the root cause is already a full sentence with the path last
            say(&format!("error: {}", e.root_cause()));
            std::process::ExitCode::FAILURE
        }
    }
}

/// Writes a line to standard error (control characters escaped: one line, always), ignoring a
/// standard error that cannot be written.
fn say(line: &str) {
    cli::say_line(line);
}
