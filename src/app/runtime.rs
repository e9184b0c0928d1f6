//! The runtime: what the editor makes from the design. The background tasks (the maze worker
//! and the test hooks that run or finish them), the current maze or error with its pages, and
//! the shape's decoded picture kept between knob changes.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::preview::PagePreview;
use super::worker::{self, Job, JobResult};
use super::{HedgeApp, targets};
use crate::design::Design;
use crate::draw;
use crate::make::{Cutting, ShapeCache};
use crate::pipeline::Generated;
use crate::shape::{Foreground, ShapeSource};

/// Designs at most this many cells (roughly) are made inside the frame; bigger ones go to the
/// worker thread.
pub const INLINE_CELLS: u64 = 2_500;

/// The outcome of the newest generation, as shown in the preview and status bar.
#[derive(Debug, Default)]
pub enum Current {
    /// Nothing made yet.
    #[default]
    None,
    /// What the entry point made (walls or tiles), its printed pages, and how long it took.
    Made {
        /// The maze.
        made: Box<crate::make::Made>,
        /// Its pages (or why the page setup cannot hold them).
        preview: Result<Arc<PagePreview>, String>,
        /// Changes whenever the pages do (the preview's raster key).
        id: u64,
        /// Generation time (maze and pages).
        elapsed: Duration,
    },
    /// The pipeline's error, one line.
    Error(String),
}

/// `d`'s shape read from the file system and cut, through `shapes`; `None` without a shape.
fn cut(
    shapes: &mut ShapeCache,
    d: &Design,
    base: Option<&Path>,
) -> Option<Result<Arc<Foreground>, String>> {
    let source = d.shape.as_ref()?;
    Some(
        shapes
            .foreground(&crate::io::Files, source, base, &Cutting::of(d))
            .map_err(|e| e.to_string()),
    )
}

/// Roughly how many cells `d` has (for deciding whether to generate in the frame).
pub fn estimated_cells(d: &Design) -> u64 {
    d.grid_topology().estimated_cells(d.width, d.height)
}

impl HedgeApp {
    /// Runs every later background task inline, on the UI thread, before the frame that starts
    /// it ends (or, with `false`, on threads again): tests see each command's outcome at once,
    /// with no waiting.
    pub fn run_tasks_inline(&mut self, inline: bool) {
        self.tasks.set_inline(inline);
    }

    /// Blocks until every background task has finished and its result is applied: the maze,
    /// the difficulty search (a search made stale by an edit is cancelled first) and the book
    /// export. A test hook: it waits on the tasks' channels, never by sleeping.
    pub fn finish_tasks(&mut self) {
        self.poll();
        while !self.worker.idle() || self.searching() || self.book.exporting() {
            if let Some(r) = self.worker.wait() {
                self.accept(r);
            }
            targets::wait(self);
            self.wait_book();
            self.poll();
        }
    }

    /// Whether a maze is being made in the background.
    pub fn busy(&self) -> bool {
        self.worker.busy()
    }

    /// The newest maze, if the last generation succeeded.
    pub fn generated(&self) -> Option<&Generated> {
        match &self.current {
            Current::Made { made, .. } => match &**made {
                crate::make::Made::Walls(g) => Some(g),
                crate::make::Made::Tiles(_) => None,
            },
            _ => None,
        }
    }

    /// The newest error line, if the last generation failed.
    pub fn error(&self) -> Option<&str> {
        match &self.current {
            Current::Error(e) => Some(e),
            _ => None,
        }
    }

    /// The shape's foreground for the current design (decoded and cut once, then cached).
    pub fn foreground(&mut self) -> Option<Result<Arc<Foreground>, String>> {
        let base = self.base_dir();
        cut(&mut self.shape, &self.design, base.as_deref())
    }

    /// The decoded picture of the design's file shape (for picking its subject).
    pub fn shape_picture(&mut self) -> Option<Arc<crate::load::LoadedShape>> {
        match self.design.shape.clone()? {
            ShapeSource::File(_) => {
                let _ = self.foreground();
                self.shape.picture()
            }
            _ => None,
        }
    }

    /// The foreground `d` would have (its shape with its pick or cut), and the picture it was
    /// made from (decoded once and cached).
    pub(super) fn foreground_of(&mut self, d: &Design) -> Option<Result<Arc<Foreground>, String>> {
        let base = self.base_dir();
        cut(&mut self.shape, d, base.as_deref())
    }

    /// The folder relative shape paths start from: the design file's.
    pub fn base_dir(&self) -> Option<PathBuf> {
        let p = Path::new(self.path.trim());
        p.parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map(Path::to_path_buf)
    }

    /// Starts making the maze for the current design: in the frame when it is small, on the
    /// worker otherwise. Any older job becomes stale.
    pub fn regenerate(&mut self) {
        let generation = self.worker.next_generation();
        self.generation = generation;
        let shape = match self.foreground() {
            None => None,
            Some(Ok(fg)) => Some(fg),
            Some(Err(e)) => {
                self.worker.mark_done(generation);
                self.current = Current::Error(e);
                return;
            }
        };
        let job = Job {
            design: self.design.clone(),
            shape,
        };
        if estimated_cells(&self.design) <= INLINE_CELLS {
            let r = worker::run_job(generation, &job);
            self.worker.mark_done(generation);
            self.accept(r);
        } else {
            self.worker.submit(generation, job);
            // an inline task (tests) has finished already
            if let Some(r) = self.worker.poll() {
                self.accept(r);
            }
        }
    }

    /// Brings the preview up to date after the design changed from `old`: a new layout when
    /// only the page setup changed (the same maze), a new maze otherwise.
    pub(super) fn refresh(&mut self, old: &Design) {
        let relayout = old.same_maze(&self.design) && !self.busy();
        match &mut self.current {
            Current::Made {
                made, preview, id, ..
            } if relayout => {
                let dropped = preview
                    .as_ref()
                    .map_or_else(|_| Arc::from([]), |p| p.dropped.clone());
                *preview = PagePreview::of(made, &self.design.page, dropped).map(Arc::new);
                self.next_id += 1;
                *id = self.next_id;
            }
            _ => self.regenerate(),
        }
    }

    /// Picks up a finished background job, if any. Called every frame.
    pub fn poll(&mut self) {
        if let Some(r) = self.worker.poll() {
            self.accept(r);
        }
        targets::poll(self);
    }

    pub(super) fn accept(&mut self, r: JobResult) {
        if r.generation != self.generation {
            return;
        }
        self.current = match r.outcome {
            Ok(finished) => {
                self.next_id += 1;
                Current::Made {
                    made: Box::new(finished.made),
                    preview: finished.preview.map(Arc::new),
                    id: self.next_id,
                    elapsed: r.elapsed,
                }
            }
            Err(e) => Current::Error(e),
        };
    }

    /// The cell of the current grid (on or off) whose centre is nearest the page position `p`,
    /// if it is within about half a cell.
    pub fn cell_at(&self, p: draw::Pos) -> Option<crate::topology::Coord> {
        let (_, preview) = self.preview()?;
        self.cell_at_maze(preview.maze_point(p))
    }

    /// The cell of the current grid (on or off) whose centre is nearest the maze point `q`, if
    /// it is within about half a cell.
    pub fn cell_at_maze(&self, q: crate::topology::Point) -> Option<crate::topology::Coord> {
        let g = self.generated()?;
        let t = g.maze.grid().topology().tess();
        let mut best = None;
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = crate::topology::Coord::new(row, col);
                let m = t.center(c);
                let d = (m.x - q.x).hypot(m.y - q.y);
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, c));
                }
            }
        }
        best.filter(|(d, _)| *d < 0.75).map(|(_, c)| c)
    }

    /// The newest maze's pages, with the id that changes whenever they do.
    pub fn preview(&self) -> Option<(u64, &Arc<PagePreview>)> {
        match &self.current {
            Current::Made {
                preview: Ok(p), id, ..
            } => Some((*id, p)),
            _ => None,
        }
    }

    /// Why the page setup cannot hold the newest maze, if it cannot.
    pub fn page_error(&self) -> Option<&str> {
        match &self.current {
            Current::Made {
                preview: Err(e), ..
            } => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::tests::settle;
    use crate::app::{Command, Persisted};
    use crate::design::{Kind, Walls};

    #[test]
    fn big_designs_go_to_the_worker() {
        let mut app = HedgeApp::headless(Persisted::default());
        let d = Design {
            width: 120,
            height: 120,
            ..app.design.clone()
        };
        crate::app::tests::edit(&mut app, d);
        settle(&mut app);
        assert_eq!(app.generated().unwrap().metrics.cells, 14_400);
        assert!(app.preview().is_some());
    }

    /// An entrance in the middle of the maze: a design the pipeline refuses.
    fn hedge_placement_inside() -> crate::endpoints::Placement {
        use crate::topology::Coord;
        crate::endpoints::Placement::Cells {
            entrance: Coord::new(5, 5),
            exit: Coord::new(0, 0),
        }
    }

    #[test]
    fn errors_are_text_not_panics() {
        let mut app = HedgeApp::headless(Persisted::default());
        let d = Design {
            kind: Kind::Walls(Walls {
                placement: hedge_placement_inside(),
                ..app.design.walls().clone()
            }),
            ..app.design.clone()
        };
        crate::app::tests::edit(&mut app, d);
        settle(&mut app);
        assert!(app.error().unwrap().contains("not on the outline"));
        app.apply(Command::OpenDesign("/no/such/file.toml".into()), None);
        assert!(matches!(&app.message, Some(Err(e)) if e.contains("/no/such/file.toml")));
    }
}
