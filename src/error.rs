//! The library's error type: one short line per error, with a kind that callers can match on.

use thiserror::Error;

/// What went wrong, in broad strokes; the app and the CLI map these to messages and exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A knob or a combination of knobs is out of range or not supported.
    InvalidOption,
    /// The mask (or the silhouette behind it) leaves no room for a maze.
    EmptyMask,
    /// A file could not be read or decoded, or the output could not be written.
    Io,
    /// The input is malformed (a design file, an ASCII mask, an image).
    BadInput,
}

/// Hedge's library error: a kind and one line of text, meant to be shown to the user as is.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct Error {
    /// The broad category.
    pub kind: ErrorKind,
    /// One line, no trailing period, paths last.
    pub message: String,
}

impl Error {
    /// A new error of `kind` with `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }

    /// Shorthand for [`ErrorKind::InvalidOption`].
    pub fn option(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidOption, message)
    }

    /// Shorthand for [`ErrorKind::BadInput`].
    pub fn input(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::BadInput, message)
    }

    /// Shorthand for [`ErrorKind::EmptyMask`].
    pub fn empty(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::EmptyMask, message)
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `text` on one line, safe for a terminal: control characters (newline, carriage return,
/// tab, NUL, ESC, ...), line and paragraph separators and bidirectional overrides are written
/// as escapes (`\n`, `\r`, `\t`, `\0`, `\u{1b}`), so a value or a file name can neither break
/// a message over several lines nor send commands to the terminal.
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| {
        c.is_control()
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if unsafe_char(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A number for a message, short whatever its size: up to three decimals, trailing zeros cut
/// (`12.7`, `0.125`, `3`), and in exponent form outside 0.001 to a million (`1e308`,
/// `2.5e-7`), so a huge or tiny value read from a file is never printed with hundreds of
/// digits.
pub fn num(v: f64) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let a = v.abs();
    if a != 0.0 && !(1e-3..1e6).contains(&a) {
        // three significant digits at most, as 1.23e45
        let s = format!("{v:.2e}");
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
        return format!("{mantissa}e{exp}");
    }
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// At most the first [`ECHO_CHARS`] characters of `text`, on one line ([`one_line`]), with
/// `...` and the full length when it is cut: a value quoted in a message stays short whatever
/// the input holds.
pub fn clip(text: &str) -> String {
    let n = text.chars().count();
    if n <= ECHO_CHARS {
        return one_line(text).into_owned();
    }
    let head: String = text.chars().take(ECHO_CHARS).collect();
    format!("{}... ({n} characters)", one_line(&head))
}

/// The most characters of a user's value a message quotes ([`clip`]).
pub const ECHO_CHARS: usize = 200;

/// The most characters of a value a message echoes ([`short_values`]).
pub const MAX_ECHO: usize = 200;

/// `text` with every value longer than [`MAX_ECHO`] characters cut to that many, followed by
/// `…` and how long it was: a run of characters with no space, or a quoted one (`'...'`,
/// `"..."` or `` `...` ``, spaces and all). So a 1 MB value given where a number or a name was wanted is
/// echoed in a line a person can read, not a megabyte long. Text with no value that long
/// comes back as it is.
pub fn short_values(text: &str) -> std::borrow::Cow<'_, str> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= MAX_ECHO {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().min(4 * MAX_ECHO + 64));
    let mut i = 0;
    let mut changed = false;
    let cut = |out: &mut String, run: &[char]| {
        out.extend(&run[..MAX_ECHO]);
        out.push_str(&format!("… ({} characters)", run.len()));
    };
    while i < chars.len() {
        let c = chars[i];
        let opens_quote = matches!(c, '\'' | '"' | '`') && (i == 0 || chars[i - 1].is_whitespace());
        if opens_quote {
            // a quoted value: up to the same quote followed by the end, a space or a mark
            let close = (i + 1..chars.len()).find(|&j| {
                chars[j] == c
                    && chars
                        .get(j + 1)
                        .is_none_or(|n| n.is_whitespace() || ":;,.)".contains(*n))
            });
            if let Some(j) = close
                && j - i - 1 > MAX_ECHO
            {
                out.push(c);
                cut(&mut out, &chars[i + 1..j]);
                out.push(c);
                i = j + 1;
                changed = true;
                continue;
            }
        }
        if !c.is_whitespace() {
            let end = (i..chars.len())
                .find(|&j| chars[j].is_whitespace())
                .unwrap_or(chars.len());
            if end - i > MAX_ECHO {
                cut(&mut out, &chars[i..end]);
                changed = true;
            } else {
                out.extend(&chars[i..end]);
            }
            i = end;
            continue;
        }
        out.push(c);
        i += 1;
    }
    if changed {
        std::borrow::Cow::Owned(out)
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_messages_are_short() {
        assert_eq!(num(1e308), "1e308");
        assert_eq!(num(-2.5e-7), "-2.5e-7");
        assert_eq!(num(123_456_789.0), "1.23e8");
        assert_eq!(num(12.7), "12.7");
        assert_eq!(num(0.125), "0.125");
        assert_eq!(num(3.0), "3");
        assert_eq!(num(-0.0001), "-1e-4");
        assert_eq!(num(0.0), "0");
        assert_eq!(num(f64::NAN), "NaN");
        assert_eq!(num(f64::INFINITY), "inf");
        assert!(num(f64::MAX).len() < 12, "{}", num(f64::MAX));
    }

    #[test]
    fn clip_keeps_200_characters_on_one_line() {
        assert_eq!(clip("short value"), "short value");
        let long = "-".repeat(100_000);
        let c = clip(&long);
        assert!(c.len() < 240, "{c}");
        assert!(c.ends_with("... (100000 characters)"), "{c}");
        assert_eq!(clip("a\nb"), "a\\nb");
    }

    #[test]
    fn one_line_escapes_control_characters() {
        assert_eq!(one_line("plain: a.png"), "plain: a.png");
        assert_eq!(one_line("a\nb\r\t\0c"), "a\\nb\\r\\t\\0c");
        assert_eq!(one_line("\u{1b}[31mred"), "\\u{1b}[31mred");
        assert_eq!(one_line("x\u{202e}y\u{2028}"), "x\\u{202e}y\\u{2028}");
        assert_eq!(one_line("café ✓"), "café ✓");
    }

    #[test]
    fn long_values_are_echoed_short() {
        assert_eq!(short_values("unknown paper 'a4x'"), "unknown paper 'a4x'");
        let long = "9".repeat(1 << 20);
        let line = format!("the ISBN {long} is not an ISBN: book.toml");
        let short = short_values(&line);
        assert!(short.chars().count() < 300, "{}", short.len());
        assert!(
            short.starts_with(&format!("the ISBN {}…", &long[..200])),
            "{short}"
        );
        assert!(
            short.ends_with("… (1048576 characters) is not an ISBN: book.toml"),
            "{short}"
        );
        // a quoted value with spaces in it, cut the same way, its quotes kept
        let spaced = "ab ".repeat(1000);
        let line = format!("invalid value '{spaced}' for '--starts <N>'");
        let short = short_values(&line);
        assert!(short.chars().count() < 300, "{short}");
        assert!(
            short.ends_with("… (3000 characters)' for '--starts <N>'"),
            "{short}"
        );
        // a long line of short words is left as it is
        let words = "word ".repeat(100);
        assert_eq!(short_values(&words), words);
    }
}
