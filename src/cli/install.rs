//! `hedge completions SHELL` and `hedge man`: the shell completions and the manual page, made
//! from the command line's own definition (clap_complete, clap_mangen) and written to standard
//! output. The Debian package ships copies of them (`assets/packaging/generated/`, which the
//! `packaging` tests keep equal to what these print).

use anyhow::{Context, Result};
use clap::{CommandFactory, ValueEnum};

use super::Cli;

/// The shells `hedge completions` writes for.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

impl From<Shell> for clap_complete::Shell {
    fn from(shell: Shell) -> Self {
        match shell {
            Shell::Bash => clap_complete::Shell::Bash,
            Shell::Zsh => clap_complete::Shell::Zsh,
            Shell::Fish => clap_complete::Shell::Fish,
        }
    }
}

/// `hedge completions SHELL`: the completion script for `shell`.
pub fn run_completions(shell: Shell) -> Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(
        clap_complete::Shell::from(shell),
        &mut Cli::command(),
        "hedge",
        &mut script,
    );
    super::write_out(&String::from_utf8(script).context("the completion script is not UTF-8")?)
}

/// `hedge man`: the manual page, hedge(1), in roff.
pub fn run_man() -> Result<()> {
    let page = man_page().context("cannot make the manual page")?;
    super::write_out(&page)
}

/// The manual page: the program's name, synopsis, description and options, then a section for
/// each subcommand with its synopsis, description and options (one page: the package installs
/// no hedge-generate(1) and such).
fn man_page() -> Result<String> {
    let mut cmd = Cli::command();
    // gives each subcommand its bin name (`hedge generate`) for its synopsis
    cmd.build();
    let mut head = Vec::new();
    let man = clap_mangen::Man::new(cmd.clone());
    man.render_title(&mut head)?;
    man.render_name_section(&mut head)?;
    man.render_synopsis_section(&mut head)?;
    let mut page = String::from_utf8(head)?;
    page.push_str(DESCRIPTION);
    let mut options = Vec::new();
    man.render_options_section(&mut options)?;
    page.push_str(&String::from_utf8(options)?);
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        if sub.get_name() == "help" {
            continue;
        }
        let mut part = Vec::new();
        let man = clap_mangen::Man::new(sub.clone());
        man.render_synopsis_section(&mut part)?;
        man.render_description_section(&mut part)?;
        man.render_options_section(&mut part)?;
        page.push_str(&as_subsection(&String::from_utf8(part)?, sub.get_name()));
    }
    let mut tail = Vec::new();
    man.render_version_section(&mut tail)?;
    page.push_str(&String::from_utf8(tail)?);
    Ok(once_preamble(&page))
}

/// The page's DESCRIPTION section (roff).
const DESCRIPTION: &str = r#".SH DESCRIPTION
Hedge turns a silhouette (a built\-in shape, a picture or a few words) into a maze and prints
it: a PDF with the maze on one page and its answer key on the next, or SVG, PNG, JSON or text.
.PP
With no subcommand, \fBhedge\fR opens the desktop editor when it is built in (the default),
and prints its help otherwise. The subcommands below need no display.
"#;

/// `page` with clap_mangen's preamble (the two lines defining the `Aq` string, which each
/// rendered part begins with) kept only where it first appears.
fn once_preamble(page: &str) -> String {
    let mut seen = std::collections::HashSet::new();
    let mut out = String::with_capacity(page.len());
    for line in page.lines() {
        let preamble = line.starts_with(".ie \\n(.g .ds Aq") || line.starts_with(".el .ds Aq");
        if preamble && !seen.insert(line) {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// A subcommand's sections turned into one section of the page, `HEDGE NAME`: its synopsis
/// heading gives the section's name, its description follows as a paragraph, and its option
/// headings become subsections.
fn as_subsection(part: &str, name: &str) -> String {
    let mut out = String::new();
    for line in part.lines() {
        match line.strip_prefix(".SH ") {
            Some("SYNOPSIS") => out.push_str(&format!(".SH \"HEDGE {}\"\n", name.to_uppercase())),
            Some("DESCRIPTION") => out.push_str(".PP\n"),
            Some(heading) => {
                let heading = heading.trim_matches('"').to_lowercase();
                let mut chars = heading.chars();
                let heading: String = chars
                    .next()
                    .map(|c| c.to_uppercase().chain(chars).collect())
                    .unwrap_or_default();
                out.push_str(&format!(".SS \"{heading}\"\n"));
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}
