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
