//! Hedge's integration tests, one binary (faster to build and link than one per file).
//!
//! - `common`: helpers the others share (running `hedge`, decoding its PNGs).
//! - `book`: puzzle books (`hedge::book`, `hedge batch`): pages, numbering, manifest, errors.
//! - `book_story`: a book tells one story (issue 59): every puzzle reprinted as its page
//!   (bw, themes, own pictures, keys), stars that follow the level and the contents' words,
//!   no shape repeated at one grid size.
//! - `book_atomic`: a book replaces the earlier one whole or not at all: `hedge batch` stopped
//!   or signalled at each step of the protocol, an entry in the way, stale files of a book.
//! - `collect`: "collect the items" puzzles (issue 61): items on the path in order and spread,
//!   decoys at dead ends, the JSON and SVG, presets and books, bad input in one line.
//! - `cli`: the `hedge` command line end to end (formats, bad input, no partial files).
//! - `cover`: a cover of its own: colours, artwork, badge and logo in `cover.pdf`'s content,
//!   in the safe areas; bad values refused in one line; the default cover unchanged.
//! - `fonts`: fonts in print: embedded subsets (pdffonts, qpdf, pdftotext when installed),
//!   symbols in titles, the warning for characters no bundled font has.
//! - `difficulty`: targets, the search (met, infeasible, thread count), presets, the flags.
//! - `hostile`: hostile input (issue 20): costly SVGs, huge pictures, control characters in
//!   messages, warnings before a failure, design-file checks.
//! - `gui`: the editor, driven through egui_kittest (with the default `gui` feature).
//! - `kdp`: KDP's limits on a whole book: page counts by trim and paper, `--strict` on every
//!   warning, spine text only where 6 pt fits, `credit = false`.
//! - `labels`: labels, arrows and text clear of each other and of the maze on every shape,
//!   topology and paper; titles that shrink and wrap; full pages, turned when the maze gains.
//! - `lang`: every word on the page in the reader's language (issue 60): pages and books in
//!   each built-in Latin-script language with no English word, strings files, bad codes.
//! - `rtl`: right-to-left page text (issue 60, item 2): a Hebrew page and book read back as
//!   typed (pdftotext, content order), embedded glyphs, the SVG's rtl search text; Arabic refused.
//! - `layers`: the library's module graph has no circles (reads `src/`); files and functions
//!   stay short; docs/ARCHITECTURE.md maps every module.
//! - `reveal`: a picture revealed by the path (issue 61, item 2): IoU of the solution and the
//!   picture on rect and hex grids, perfect mazes, the presets' decision points, the key's
//!   shading, the same bytes twice, bad input in one line.
//! - `readme`: every `$ hedge ...` example in the README and docs/ prints what it shows, and
//!   its pictures are what the program makes.
//! - `packaging`: what the Debian package installs: the man page and completions as committed
//!   are what `hedge man` / `hedge completions` print, the desktop entry and metainfo validate.
//! - `properties`: invariants over topology x carver x random masks x seeds (proptest).
//! - `preview`: snapshots of the editor's preview pixels (with the default `gui` feature).
//! - `plotter`: plotter and centre-line SVGs: few strokes, short pen travel, no fills or text.
//! - `preflight`: the print-service checks: thin lines, safe area, gutter table, `--strict`.
//! - `print`: the printable pages (drawing model, PDF/SVG/PNG read back).
//! - `same_page`: the CLI, the library's entry point and a book page make the same bytes.
//! - `weave`: weave mazes: perfect at every density, well-formed crossings, braid skipped.
//! - `whole`: shaped mazes at children's sizes: a closed outer wall, no stray walls, no pinches.
//! - `shapes`: silhouettes to masks on every topology, built-in shapes, bad pictures.
//! - `staging`: a book folder is changed only as far as Hedge wrote it (issue 57): forged
//!   staging folders and journals left alone, one run at a time, `ulimit -f`, SIGTERM mid-staging.
//! - `tiles`: hex tile mazes printed (SVG, PDF, PNG), inside silhouettes, from the CLI.
//! - `upright`: shapes never turned against their page's text (issue 59): a wide animal's page
//!   turned with it in a book (`turn = "page"`), its text reading up, reprinted byte for byte.

mod arabic;
mod book;
mod book_atomic;
mod book_story;
mod cli;
mod collect;
mod common;
mod cover;
mod difficulty;
mod fonts;
#[cfg(feature = "gui")]
mod gui;
mod hostile;
mod kdp;
mod labels;
mod lang;
mod layers;
mod outline;
mod packaging;
mod plotter;
mod preflight;
#[cfg(feature = "gui")]
mod preview;
mod print;
mod properties;
mod readme;
mod reveal;
mod rtl;
mod same_page;
mod shapes;
mod staging;
mod tiles;
mod upright;
mod weave;
mod whole;
