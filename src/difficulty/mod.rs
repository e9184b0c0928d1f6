//! Difficulty: the reader [`presets`] and the [`parallel_search`] for a maze that meets the
//! design's targets. The targets themselves (ranges, metrics, the report) live in
//! [`crate::targets`], a leaf the design and the JSON export use; they are re-exported here so
//! callers find everything about difficulty in one place.
//!
//! Layering: [`crate::targets`] sits below the design; the presets sit above the page layout
//! (they ask [`crate::draw::layout`] how big a grid fits) and the search above the pipeline (it
//! runs it). Nothing below imports this module (`tests/layers.rs` checks the module graph).

pub mod levels;
pub mod parallel_search;
pub mod presets;

pub use crate::targets::{Metric, Range, Report, Row, Targets};
pub(crate) use parallel_search::search_unchecked;
pub use parallel_search::{
    Budget, DEFAULT_BUDGET, Found, MAX_CANDIDATES, MAX_SECONDS, Progress, SearchOptions, Stop,
    batch_size, candidate_seed, default_budget, search, search_on, search_with,
};
pub use presets::{NARROWING, PRESETS, Preset, between, preset, preset_between, preset_names};
