//! The document: the design being edited and everything about it that is not the maze made
//! from it. Its undo history (egui's undoer, one step per edit), the saved state (what is kept
//! between runs in eframe's storage, and the design as last opened or saved), the autosave file
//! and the recent-files list.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{APP_ID, HedgeApp, book};
use crate::design::{Design, MAX_SEED};
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

impl HedgeApp {
    /// Turns on autosave to `path`. When the file is there already, the last run ended
    /// without closing (a crash, a kill): its design is restored, as an undoable edit. The one
    /// file the UI thread reads itself: at start-up, before the first frame.
    pub fn with_autosave(mut self, path: PathBuf) -> Self {
        if let Ok(text) = crate::io::read_text(&path, "cannot read the autosave")
            && let Ok(d) = crate::io::parse_design(&text)
        {
            let d = clamp_design(d);
            if d != self.design {
                self.set_design(d, false);
                self.message = Some(Ok(format!(
                    "restored the design autosaved before the last run ended ({})",
                    path.display()
                )));
            }
        }
        self.autosaved = Some(self.design.clone());
        self.autosave = Some(path);
        self
    }

    /// Whether the design differs from the one last opened or saved.
    pub fn unsaved(&self) -> bool {
        self.design != self.saved
    }

    /// A clean exit: the autosave file is no longer needed.
    /// Writes still under way (a save, the autosave) are let finish first.
    pub fn remove_autosave(&mut self) {
        self.wait_files();
        if let Some(path) = &self.autosave {
            let _ = crate::io::remove_file(path);
        }
    }

    pub(super) fn remember(&mut self, path: &Path) {
        let p = path.display().to_string();
        self.recent.retain(|r| *r != p);
        self.recent.insert(0, p);
        self.recent.truncate(RECENT);
    }

    /// What is saved between runs.
    pub fn persisted(&self) -> Persisted {
        Persisted {
            design: self.design.clone(),
            answer_key: self.answer_key,
            path: self.path.clone(),
            file: self.file.clone(),
            show_crossings: self.show_crossings,
            recent: self.recent.clone(),
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
            self.held = Some((design, coalesce));
            return;
        }
        if design == self.design {
            self.last_coalesce = coalesce;
            return;
        }
        // an edit waiting for its pictures is older than this one
        self.held = None;
        if !(coalesce && self.last_coalesce) {
            // the design before the edit becomes an undo point
            self.history.add_undo(&self.design);
        }
        self.last_coalesce = coalesce;
        let old = std::mem::replace(&mut self.design, design);
        // a note about an earlier action ("no file chosen", "saved ...") goes once the design
        // moves on; an error stays until it is dealt with
        if matches!(self.message, Some(Ok(_))) {
            self.message = None;
        }
        // tells the undoer the design moved on, so it drops the undone steps; its clock stands
        // still, so it never adds undo points of its own (steps are the edits, not pauses)
        self.history.feed_state(0.0, &self.design);
        self.refresh(&old);
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
        let first = app.design.clone();
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
        assert_eq!(app.design, first);
        app.apply(Command::Redo, None);
        assert_eq!(app.design.walls().braid, 0.6);
    }

    /// Edits the braid to `braid` as its own step.
    fn braid(app: &mut HedgeApp, braid: f64) {
        let mut d = app.design.clone();
        d.walls_mut().unwrap().braid = braid;
        crate::app::tests::edit(app, d);
    }

    #[test]
    fn a_new_edit_drops_the_undone_ones_and_the_history_has_a_depth() {
        let mut app = HedgeApp::headless(Persisted::default());
        let first = app.design.clone();
        assert!(!app.can_undo() && !app.can_redo());
        braid(&mut app, 0.1);
        braid(&mut app, 0.2);
        braid(&mut app, 0.3);
        app.apply(Command::Undo, None);
        app.apply(Command::Undo, None);
        assert_eq!(app.design.walls().braid, 0.1);
        assert!(app.can_redo());
        // a new edit: 0.2 and 0.3 cannot come back
        braid(&mut app, 0.5);
        assert!(!app.can_redo());
        app.apply(Command::Redo, None);
        assert_eq!(app.design.walls().braid, 0.5);
        assert_eq!(app.undo_steps(), 2);
        app.apply(Command::Undo, None);
        assert_eq!(app.design.walls().braid, 0.1);
        app.apply(Command::Redo, None);
        assert_eq!(app.design.walls().braid, 0.5, "the redo is the new edit");
        app.apply(Command::Undo, None);
        app.apply(Command::Undo, None);
        assert_eq!(app.design, first);
        assert!(!app.can_undo());
        // the oldest steps go past the depth
        for i in 0..UNDO_DEPTH + 20 {
            braid(&mut app, (i + 1) as f64 / 1000.0);
        }
        assert_eq!(app.undo_steps(), UNDO_DEPTH);
    }
}
