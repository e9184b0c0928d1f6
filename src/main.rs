//! The `hedge` binary: the command line, and (with the default `gui` feature) the editor when no
//! subcommand is given.

mod cli;

use clap::Parser;

fn main() -> std::process::ExitCode {
    clean_up_on_signals();
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        // help and version on standard output, a usage error in one line
        Err(e) => return cli::refused(&e),
    };
    #[cfg(feature = "gui")]
    if cli.command.is_none() {
        // `hedge FILE` opens the file in the editor; a name that is no file is more likely a
        // subcommand mistyped
        if let Some(f) = cli.file.as_ref().filter(|f| !f.exists()) {
            say(&format!(
                "error: no such file or subcommand '{}' (subcommands: generate, shapes, batch, \
                 regenerate, completions, man); try 'hedge --help'",
                hedge::error::clip(&f.display().to_string())
            ));
            return std::process::ExitCode::from(2);
        }
        return match hedge::app::run(cli.file) {
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
            say_notes();
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            cli::drop_warnings();
            say_notes();
            // one line: the root cause is already a full sentence with the path last
            say(&format!("error: {}", e.root_cause()));
            std::process::ExitCode::FAILURE
        }
    }
}

/// Writes the notes on what the run's file writes left alone (a staging folder that is not as
/// Hedge writes it), one line each ([`hedge::io::take_notes`]).
fn say_notes() {
    for note in hedge::io::take_notes() {
        say(&format!("note: {note}"));
    }
}

/// Writes a line to standard error (control characters escaped: one line, always), ignoring a
/// standard error that cannot be written.
fn say(line: &str) {
    cli::say_line(line);
}

/// On SIGINT or SIGTERM, removes the temporary files and staging folders of the writes under
/// way ([`hedge::io::remove_temporaries_then`]) and exits with the usual status, 128 + the
/// signal's number (130, 143). The signals are received on a thread of their own
/// (signal-hook's self-pipe), so the cleanup runs outside the signal handler. SIGXFSZ (a file
/// past `ulimit -f`) is caught and does nothing, so the write fails with EFBIG and the run
/// says "file too large" and cleans up, instead of being killed with its temporaries left.
#[cfg(unix)]
fn clean_up_on_signals() {
    use signal_hook::consts::{SIGINT, SIGTERM, SIGXFSZ};
    use signal_hook::iterator::Signals;
    let _ = signal_hook::flag::register(
        SIGXFSZ,
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    );
    // without the handler (it cannot be installed), a signal ends the run as before
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    let spawned = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                hedge::io::remove_temporaries_then(|| {
                    say_notes();
                    std::process::exit(128 + signal)
                });
            }
        });
    if spawned.is_err() {
        say("warning: cannot watch for interrupts; an interrupted run may leave temporary files");
    }
}

#[cfg(not(unix))]
fn clean_up_on_signals() {}
