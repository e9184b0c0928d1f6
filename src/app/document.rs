//! The document: the design being edited and everything about it that is not the maze made
//! from it. Its undo history (egui's undoer, one step per edit), the saved state (what is kept
//! between runs in eframe's storage, and the design as last opened or saved), the autosave file
//! and the recent-files list.
//!
//! [`Document`] holds it, its state private: the design changes only through
//! [`Document::commit`] (one undo step, or the previous one continued), undo, redo and
//! [`Document::amend`], so the undo history and the autosave see every change. The app's
//! [`HedgeApp::set_design`] is the one way in from the editor: it reads the start and finish
//! pictures first and brings the maze up to date after.

use std::path::{Path, PathBuf};
use std::time::Instant;

use egui::util::undoer::{self, Undoer};
use serde::{Deserialize, Serialize};

use super::{APP_ID, HedgeApp, book};
use crate::design::{Design, Kind, MAX_SEED};
use crate::random::fresh_seed;

/// The most recent files listed.
pub const RECENT: usize = 8;

/// Where the design is autosaved: `autosave.toml` in the folder where eframe keeps the editor's
/// settings (on Linux `$XDG_DATA_HOME/hedge`, or `~/.local/share/hedge`). Tests pass their own
/// path to [`HedgeApp::with_autosave`].
pub fn default_autosave_path() -> Option<PathBuf> {
    Some(eframe::storage_dir(APP_ID)?.join("autosave.toml"))
}

/// The most undo steps kept.
pub const UNDO_DEPTH: usize = 200;

/// What is kept between runs: the design, the answer-key toggle, the file path and the book list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Persisted {
    /// The last design.
    pub design: Design,
    /// Whether the solution was shown.
    pub answer_key: bool,
    /// The path in the file field.
    pub path: String,
    /// The design's own file, if it has one.
    pub file: Option<PathBuf>,
    /// Whether weave crossings were tinted.
    pub show_crossings: bool,
    /// Design files opened or saved lately, newest first.
    pub recent: Vec<String>,
    /// The book list.
    pub book: book::BookList,
}

/// The small settings stored with eframe's storage (RON). Every field has a default, so older
/// saves keep loading. The design itself is stored as TOML text under [`DESIGN_KEY`], the same
/// format as design files.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    /// Whether the solution was shown.
    pub answer_key: bool,
    /// The path in the file field.
    pub path: String,
    /// The design's own file (empty: none).
    pub file: String,
    /// Whether weave crossings were tinted.
    pub show_crossings: bool,
    /// Design files opened or saved lately, newest first.
    pub recent: Vec<String>,
}

/// The storage key of the last design (TOML text).
pub const DESIGN_KEY: &str = "design";

impl Persisted {
    /// Reads what the last run stored; anything missing or unreadable takes its default.
    pub fn load(storage: &dyn eframe::Storage) -> Persisted {
        let prefs: Prefs = eframe::get_value(storage, eframe::APP_KEY).unwrap_or_default();
        let design = storage
            .get_string(DESIGN_KEY)
            .and_then(|t| crate::io::parse_design(&t).ok())
            .unwrap_or_default();
        let book = storage
            .get_string(book::BOOK_KEY)
            .and_then(|t| book::BookList::from_toml(&t).ok())
            .unwrap_or_default();
        Persisted {
            book,
            design,
            answer_key: prefs.answer_key,
            path: prefs.path,
            file: (!prefs.file.is_empty()).then(|| PathBuf::from(prefs.file)),
            show_crossings: prefs.show_crossings,
            recent: prefs.recent,
        }
    }

    /// Writes this into eframe's storage.
    pub fn store(&self, storage: &mut dyn eframe::Storage) {
        storage.set_string(DESIGN_KEY, crate::io::design_to_toml(&self.design));
        storage.set_string(book::BOOK_KEY, self.book.to_toml());
        eframe::set_value(
            storage,
            eframe::APP_KEY,
            &Prefs {
                answer_key: self.answer_key,
                path: self.path.clone(),
                file: self
                    .file
                    .as_ref()
                    .map(|f| f.display().to_string())
                    .unwrap_or_default(),
                show_crossings: self.show_crossings,
                recent: self.recent.clone(),
            },
        );
    }
}

/// Knob values the editor keeps the design within.
pub fn clamp_design(mut d: Design) -> Design {
    d.width = d.width.clamp(1, 500);
    d.height = d.height.clamp(1, 500);
    let unit = |v: f64| {
        if v.is_finite() {
            v.clamp(0.0, 1.0)
        } else {
            0.0
        }
    };
    if let Some(w) = d.walls_mut() {
        w.braid = unit(w.braid);
        w.weave = unit(w.weave);
    }
    d.seed = Some(d.seed.map_or_else(fresh_seed, |s| s.min(MAX_SEED)));
    d
}

/// The design being edited, its history, its file and its saved state.
pub struct Document {
    /// The design being edited (its seed is always set).
    design: Design,
    /// Earlier and undone designs (egui's undoer, fed one step per edit: see
    /// [`Document::commit`]).
    history: Undoer<Design>,
    /// Whether the last edit may be continued (a slider drag in progress).
    last_coalesce: bool,
    /// The design as last opened or saved (or as the editor started): unsaved changes are
    /// anything different from it.
    saved: Design,
    /// The design's own file (opened from or saved to; `None` for a design never saved): Save
    /// (Ctrl+S) writes here, the window title names it, relative picture paths start from its
    /// folder. Only ever a design file.
    file: Option<PathBuf>,
    /// Design files opened or saved lately, newest first (at most [`RECENT`]).
    recent: Vec<String>,
    /// Where the design is autosaved while the editor runs (removed on a clean exit); `None`
    /// turns autosave off.
    autosave: Option<PathBuf>,
    /// The design last written to the autosave file.
    autosaved: Option<Design>,
    /// When the autosave file was last written.
    autosaved_at: Option<Instant>,
    /// An edit waiting for its start and finish pictures to be read (and whether it continues
    /// the previous edit).
    held: Option<(Design, bool)>,
    /// Whether the Height follows the Width with a shape, keeping its aspect ratio (the
    /// "Keep the shape's aspect" tick; unticked, Height is set by hand).
    keep_aspect: bool,
    /// The knobs of the other style (walls or tiles) the design last had, given back when the
    /// Style menu switches to it again.
    other_kind: Option<Kind>,
}

impl Document {
    /// A document of `design` (kept within the knobs' range), saved as it is, with `file` as
    /// its own file and `recent` the files opened lately.
    pub fn new(design: Design, file: Option<PathBuf>, recent: Vec<String>) -> Document {
        let design = clamp_design(design);
        Document {
            saved: design.clone(),
            design,
            history: Undoer::with_settings(undoer::Settings {
                max_undos: UNDO_DEPTH,
                ..undoer::Settings::default()
            }),
            last_coalesce: false,
            file,
            recent,
            autosave: None,
            autosaved: None,
            autosaved_at: None,
            held: None,
            keep_aspect: true,
            other_kind: None,
        }
    }

    /// The design being edited.
    pub fn design(&self) -> &Design {
        &self.design
    }

    /// The design's own file, if it has one.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The design as last opened or saved.
    pub fn saved(&self) -> &Design {
        &self.saved
    }

    /// Whether the design differs from the one last opened or saved.
    pub fn unsaved(&self) -> bool {
        self.design != self.saved
    }

    /// Design files opened or saved lately, newest first.
    pub fn recent(&self) -> &[String] {
        &self.recent
    }

    /// Whether the Height follows the Width with a shape.
    pub fn keep_aspect(&self) -> bool {
        self.keep_aspect
    }

    /// The "Keep the shape's aspect" tick.
    pub(super) fn keep_aspect_mut(&mut self) -> &mut bool {
        &mut self.keep_aspect
    }

    /// The knobs of the other style, for the Style menu.
    pub(super) fn other_kind_mut(&mut self) -> &mut Option<Kind> {
        &mut self.other_kind
    }

    /// Makes `design` (already within range, its pictures read) the design: a new undo step,
    /// unless `coalesce` continues the previous edit. Gives back the design it replaced, or
    /// `None` when nothing changed. An edit held for its pictures is older: it is dropped.
    pub(super) fn commit(&mut self, design: Design, coalesce: bool) -> Option<Design> {
        if design == self.design {
            self.last_coalesce = coalesce;
            return None;
        }
        // an edit waiting for its pictures is older than this one
        self.held = None;
        if !(coalesce && self.last_coalesce) {
            // the design before the edit becomes an undo point
            self.history.add_undo(&self.design);
        }
        self.last_coalesce = coalesce;
        let old = std::mem::replace(&mut self.design, design);
        // tells the undoer the design moved on, so it drops the undone steps; its clock stands
        // still, so it never adds undo points of its own (steps are the edits, not pauses)
        self.history.feed_state(0.0, &self.design);
        Some(old)
    }

    /// The next [`Document::commit`] with `coalesce` continues the last edit's undo step (a
    /// change that follows from that edit, once the work it waited for is done).
    pub(super) fn continue_step(&mut self) {
        self.last_coalesce = true;
    }

    /// Changes the design within the current undo step (the point before the edit stays).
    pub(super) fn amend(&mut self, change: impl FnOnce(&mut Design)) {
        change(&mut self.design);
        self.history.feed_state(0.0, &self.design);
    }

    /// Goes back to the design before the last edit, if there is one; gives back the design it
    /// replaced.
    pub(super) fn undo(&mut self) -> Option<Design> {
        let d = self.history.undo(&self.design).cloned()?;
        self.last_coalesce = false;
        Some(std::mem::replace(&mut self.design, d))
    }

    /// Goes forward to the design last undone, if there is one; gives back the design it
    /// replaced.
    pub(super) fn redo(&mut self) -> Option<Design> {
        let d = self.history.redo(&self.design).cloned()?;
        self.last_coalesce = false;
        Some(std::mem::replace(&mut self.design, d))
    }

    /// Whether there is an edit to undo.
    pub fn can_undo(&self) -> bool {
        self.history.has_undo(&self.design)
    }

    /// Whether there is an undone edit to redo.
    pub fn can_redo(&self) -> bool {
        self.history.has_redo(&self.design)
    }

    /// How many edits can be undone, one after another (counted on a copy of the history).
    pub fn undo_steps(&self) -> usize {
        let mut history = self.history.clone();
        let mut design = self.design.clone();
        let mut steps = 0;
        while let Some(d) = history.undo(&design) {
            design = d.clone();
            steps += 1;
        }
        steps
    }

    /// Holds an edit until its start and finish pictures are read.
    pub(super) fn hold(&mut self, design: Design, coalesce: bool) {
        self.held = Some((design, coalesce));
    }

    /// The edit held for its pictures, if any, no longer held.
    pub(super) fn take_held(&mut self) -> Option<(Design, bool)> {
        self.held.take()
    }

    /// Makes `file` the design's own file (or none).
    pub(super) fn set_file(&mut self, file: Option<PathBuf>) {
        self.file = file;
    }

    /// The design as it is now is the saved one.
    pub(super) fn mark_saved(&mut self) {
        self.saved = self.design.clone();
    }

    /// `design` was saved to `path`: that is the design's file now, and `design` the saved one
    /// (the design may have changed since the save was asked for).
    pub(super) fn saved_as(&mut self, path: &Path, design: Design) {
        self.file = Some(path.to_path_buf());
        self.saved = design;
        self.remember(path);
    }

    /// Puts `path` first in the recent files.
    pub(super) fn remember(&mut self, path: &Path) {
        let p = path.display().to_string();
        self.recent.retain(|r| *r != p);
        self.recent.insert(0, p);
        self.recent.truncate(RECENT);
    }

    /// The design starts over with `seed`, as if it had been opened so: no undo step, nothing
    /// to save.
    pub(super) fn reseed(&mut self, seed: u64) {
        self.design.seed = Some(seed);
        self.saved = self.design.clone();
    }

    /// Where the design is autosaved, if it is.
    pub fn autosave_path(&self) -> Option<&Path> {
        self.autosave.as_deref()
    }

    /// Autosaves to `path` from now on, the design as it is counting as written there.
    pub(super) fn start_autosave(&mut self, path: PathBuf) {
        self.autosaved = Some(self.design.clone());
        self.autosave = Some(path);
    }

    /// Autosaves to `path` from now on; the design is written there at the next autosave.
    pub(super) fn set_autosave_path(&mut self, path: PathBuf) {
        self.autosave = Some(path);
    }

    /// The autosave to write now, if any: where, and the design. Nothing when autosave is off
    /// or the design is the one written last, nor, unless `force`, within a second of the last
    /// write.
    pub(super) fn autosave_due(&self, force: bool) -> Option<(PathBuf, Design)> {
        let path = self.autosave.as_ref()?;
        if self.autosaved.as_ref() == Some(&self.design) {
            return None;
        }
        if !force
            && self
                .autosaved_at
                .is_some_and(|t| t.elapsed() < std::time::Duration::from_secs(1))
        {
            return None;
        }
        Some((path.clone(), self.design.clone()))
    }

    /// `design` was written to the autosave file.
    pub(super) fn autosaved(&mut self, design: Design) {
        self.autosaved = Some(design);
        self.autosaved_at = Some(Instant::now());
    }
}

impl HedgeApp {
    /// Turns on autosave to `path`. When the file is there already, the last run ended
    /// without closing (a crash, a kill): its design is restored, as an undoable edit. The one
    /// file the UI thread reads itself: at start-up, before the first frame.
    pub fn with_autosave(mut self, path: PathBuf) -> Self {
        if let Ok(text) = crate::io::read_text(&path, "cannot read the autosave")
            && let Ok(d) = crate::io::parse_design(&text)
        {
            let d = clamp_design(d);
            if d != *self.doc.design() {
                self.set_design(d, false);
                self.message = Some(Ok(format!(
                    "restored the design autosaved before the last run ended ({})",
                    path.display()
                )));
            }
        }
        self.doc.start_autosave(path);
        self
    }

    /// Autosaves to `path` from now on (a test hook: the editor starts autosaving with
    /// [`HedgeApp::with_autosave`]).
    pub fn autosave_to(&mut self, path: PathBuf) {
        self.doc.set_autosave_path(path);
    }

    /// The design being edited.
    pub fn design(&self) -> &Design {
        self.doc.design()
    }

    /// The design as last opened or saved.
    pub fn saved(&self) -> &Design {
        self.doc.saved()
    }

    /// The design's own file (opened from or saved to), if it has one.
    pub fn file(&self) -> Option<&Path> {
        self.doc.file()
    }

    /// Design files opened or saved lately, newest first (at most [`RECENT`]).
    pub fn recent(&self) -> &[String] {
        self.doc.recent()
    }

    /// Whether the design differs from the one last opened or saved.
    pub fn unsaved(&self) -> bool {
        self.doc.unsaved()
    }

    /// Starts over from the design as it is with `seed` (no undo step, nothing to save) and
    /// makes its maze: tests and benchmarks start every editor from the same seed.
    pub fn start_from_seed(&mut self, seed: u64) {
        self.doc.reseed(seed);
        self.regenerate();
    }

    /// A clean exit: the autosave file is no longer needed.
    /// Writes still under way (a save, the autosave) are let finish first.
    pub fn remove_autosave(&mut self) {
        self.wait_files();
        if let Some(path) = self.doc.autosave_path() {
            let _ = crate::io::remove_file(path);
        }
    }

    /// What is saved between runs.
    pub fn persisted(&self) -> Persisted {
        Persisted {
            design: self.doc.design().clone(),
            answer_key: self.view.answer_key(),
            path: self.path.clone(),
            file: self.doc.file().map(Path::to_path_buf),
            show_crossings: self.view.show_crossings(),
            recent: self.doc.recent().to_vec(),
            book: self.book.list.clone(),
        }
    }

    /// Makes `design` the design: a new undo step, unless `coalesce` continues the previous
    /// edit (a slider drag or a brush stroke is one step).
    ///
    /// An edit to start or finish pictures not read yet waits for them (read in the
    /// background); a newer edit meanwhile wins over it.
    pub(super) fn set_design(&mut self, design: Design, coalesce: bool) {
        let mut design = clamp_design(design);
        if !self.end_pictures(&mut design) {
            self.doc.hold(design, coalesce);
            return;
        }
        let Some(old) = self.doc.commit(design, coalesce) else {
            return;
        };
        // a note about an earlier action ("no file chosen", "saved ...") goes once the design
        // moves on; an error stays until it is dealt with
        if matches!(self.message, Some(Ok(_))) {
            self.message = None;
        }
        self.refresh(&old);
    }

    /// Whether there is an edit to undo.
    pub fn can_undo(&self) -> bool {
        self.doc.can_undo()
    }

    /// Whether there is an undone edit to redo.
    pub fn can_redo(&self) -> bool {
        self.doc.can_redo()
    }

    /// How many edits can be undone, one after another (counted on a copy of the history).
    pub fn undo_steps(&self) -> usize {
        self.doc.undo_steps()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Command;
    use crate::design::{Kind, Walls};
    use crate::shape::ShapeSource;
    use crate::topology::TopologyKind;

    /// An in-memory [`eframe::Storage`].
    #[derive(Default)]
    struct Memory(std::collections::BTreeMap<String, String>);

    impl eframe::Storage for Memory {
        fn get_string(&self, key: &str) -> Option<String> {
            self.0.get(key).cloned()
        }
        fn set_string(&mut self, key: &str, value: String) {
            self.0.insert(key.to_string(), value);
        }
        fn remove_string(&mut self, key: &str) {
            self.0.remove(key);
        }
        fn flush(&mut self) {}
    }

    #[test]
    fn the_last_design_survives_a_restart() {
        use eframe::Storage as _;
        let p = Persisted {
            design: Design {
                kind: Kind::Walls(Walls {
                    topology: TopologyKind::Hex,
                    braid: 0.25,
                    growing_tree: crate::carve::GrowingTreePolicy::Mixed(0.3),
                    ..Walls::DEFAULT
                }),
                seed: Some(77),
                ..Design::default()
            },
            answer_key: true,
            path: "/tmp/x.pdf".into(),
            file: Some("/tmp/x.toml".into()),
            show_crossings: true,
            recent: vec!["/tmp/x.toml".into()],
            book: book::BookList {
                pages: vec![book::Page {
                    design: Design {
                        seed: Some(3),
                        shape: Some(ShapeSource::Builtin("owl".into())),
                        ..Design::default()
                    },
                    // a generator's page and its entry are kept too
                    generator: Some((0, 0)),
                }],
                generators: vec![crate::app::book_file::Generator {
                    entry: toml::from_str("count = 1\nseed_from = 3\nshapes = [\"owl\"]").unwrap(),
                    base: "/tmp".into(),
                }],
                ..book::BookList::default()
            },
        };
        let mut m = Memory::default();
        p.store(&mut m);
        assert_eq!(Persisted::load(&m), p);
        // garbage and old saves fall back to defaults instead of failing
        m.set_string(DESIGN_KEY, "width = \"wide\"".into());
        m.set_string(eframe::APP_KEY, "(answer_key: true, future_knob: 3)".into());
        let back = Persisted::load(&m);
        assert_eq!(back.design, Design::default());
        assert_eq!(Persisted::load(&Memory::default()), Persisted::default());
    }

    #[test]
    fn edits_undo_and_redo() {
        let mut app = HedgeApp::headless(Persisted::default());
        let first = app.design().clone();
        assert!(first.seed.is_some());
        let mut d = first.clone();
        d.walls_mut().unwrap().braid = 0.5;
        app.apply(
            Command::Edit {
                design: Box::new(d.clone()),
                coalesce: true,
            },
            None,
        );
        d.walls_mut().unwrap().braid = 0.6;
        app.apply(
            Command::Edit {
                design: Box::new(d.clone()),
                coalesce: true,
            },
            None,
        );
        assert_eq!(app.undo_steps(), 1, "a drag is one undo step");
        app.apply(Command::Undo, None);
        assert_eq!(*app.design(), first);
        app.apply(Command::Redo, None);
        assert_eq!(app.design().walls().braid, 0.6);
    }

    /// Edits the braid to `braid` as its own step.
    fn braid(app: &mut HedgeApp, braid: f64) {
        let mut d = app.design().clone();
        d.walls_mut().unwrap().braid = braid;
        crate::app::tests::edit(app, d);
    }

    #[test]
    fn a_new_edit_drops_the_undone_ones_and_the_history_has_a_depth() {
        let mut app = HedgeApp::headless(Persisted::default());
        let first = app.design().clone();
        assert!(!app.can_undo() && !app.can_redo());
        braid(&mut app, 0.1);
        braid(&mut app, 0.2);
        braid(&mut app, 0.3);
        app.apply(Command::Undo, None);
        app.apply(Command::Undo, None);
        assert_eq!(app.design().walls().braid, 0.1);
        assert!(app.can_redo());
        // a new edit: 0.2 and 0.3 cannot come back
        braid(&mut app, 0.5);
        assert!(!app.can_redo());
        app.apply(Command::Redo, None);
        assert_eq!(app.design().walls().braid, 0.5);
        assert_eq!(app.undo_steps(), 2);
        app.apply(Command::Undo, None);
        assert_eq!(app.design().walls().braid, 0.1);
        app.apply(Command::Redo, None);
        assert_eq!(app.design().walls().braid, 0.5, "the redo is the new edit");
        app.apply(Command::Undo, None);
        app.apply(Command::Undo, None);
        assert_eq!(*app.design(), first);
        assert!(!app.can_undo());
        // the oldest steps go past the depth
        for i in 0..UNDO_DEPTH + 20 {
            braid(&mut app, (i + 1) as f64 / 1000.0);
        }
        assert_eq!(app.undo_steps(), UNDO_DEPTH);
    }
}
