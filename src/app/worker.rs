//! The background work behind the preview and the files: the generator ([`Worker`]), the shape
//! reader ([`Reader`]) and the single-file export ([`export`]). None of it runs on the UI thread.
//!
//! The UI hands the generator jobs numbered by a generation counter. At most one runs at a
//! time; a newer knob change replaces an older job that has not started; a finished job sends a
//! typed [`JobResult`] back on a channel that the UI polls once per frame. A result whose
//! generation is not the newest is stale and dropped, so the preview always shows the latest
//! knobs.

use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::design::Design;
use crate::load::LoadedShape;
use crate::make::{Cutting, Fit, Made, ShapeCache};
use crate::page::PageSetup;
use crate::shape::{Foreground, ShapeSource};

use super::ExportKind;
use super::preview::PagePreview;
use super::task::{Control, Handle, Latest, Spawner, Task};

/// One maze to make: the design and, when it has a shape, the shape's foreground (decoded and
/// cut once by the app, shared here).
#[derive(Clone, Debug)]
pub struct Job {
    /// The design.
    pub design: Design,
    /// The design's shape, cut with its threshold and invert knobs.
    pub shape: Option<Arc<Foreground>>,
    /// The grid the design's START and FINISH cells (when placed by hand) were last shown on:
    /// when they are off the new maze's outline, they follow it ([`super::ends`]).
    pub ends_on: Option<super::ends::GridSize>,
}

impl Job {
    /// A job for a design without a shape (or whose shape is ignored).
    pub fn plain(design: Design) -> Job {
        Job {
            design,
            shape: None,
            ends_on: None,
        }
    }
}

/// What a generation job produced.
#[derive(Debug)]
pub struct JobResult {
    /// The generation number the job was submitted with.
    pub generation: u64,
    /// The maze and its pages, or the error as one readable line.
    pub outcome: Result<Finished, String>,
    /// How long the pipeline took (maze, pages and all).
    pub elapsed: Duration,
}

/// A maze and its preview, made together off the UI thread.
#[derive(Debug)]
pub struct Finished {
    /// What the entry point made (walls or tiles).
    pub made: crate::make::Made,
    /// Its printed pages (or why they cannot be laid out with the page setup).
    pub preview: Result<PagePreview, String>,
    /// Where START and FINISH moved, when the design's placed cells were off the new maze's
    /// outline (the maze is made with this placement; the app writes it into the design).
    pub followed: Option<crate::endpoints::Placement>,
}

/// Runs the pipeline on `job` (shape mask, maze, pages; a tile maze for the tiles style) and
/// times it.
pub fn run_job(generation: u64, job: &Job) -> JobResult {
    let start = Instant::now();
    let outcome = make(job).map_err(|e| e.to_string());
    JobResult {
        generation,
        outcome,
        elapsed: start.elapsed(),
    }
}

fn make(job: &Job) -> crate::error::Result<Finished> {
    // the one entry point: the shape already cut by the app, the height already fitted
    let prepared = crate::make::prepare_with(&job.design, job.shape.clone(), Fit::default())?;
    let (prepared, made, followed) = match prepared.make() {
        Ok(made) => (prepared, made, None),
        // START and FINISH placed by hand and now off the maze: they follow it
        Err(e) => {
            let (p, m, placement) =
                super::ends::remake(&job.design, job.shape.clone(), job.ends_on, e)?;
            (p, m, Some(placement))
        }
    };
    let preview = PagePreview::of(&made, &job.design.page, Arc::from(prepared.dropped()));
    Ok(Finished {
        made,
        preview,
        followed,
    })
}

/// The handle the UI keeps: submit jobs, poll results.
pub struct Worker {
    jobs: Latest<JobResult>,
}

impl Worker {
    /// A worker whose jobs `spawner` starts (on threads, or inline in tests).
    pub fn new(spawner: Spawner) -> Self {
        Worker {
            jobs: Latest::new("making the maze", spawner),
        }
    }

    /// A new generation number; results of every earlier one become stale.
    pub fn next_generation(&mut self) -> u64 {
        self.jobs.next_generation()
    }

    /// Queues `job` under `generation` (from [`Worker::next_generation`]), replacing any job
    /// still waiting.
    pub fn submit(&mut self, generation: u64, job: Job) {
        self.jobs
            .submit(generation, move |_| run_job(generation, &job));
    }

    /// Marks `generation` as finished without the worker (an inline job).
    pub fn mark_done(&mut self, generation: u64) {
        self.jobs.mark_done(generation);
    }

    /// The newest result, if one arrived since the last poll; stale results are dropped.
    pub fn poll(&mut self) -> Option<JobResult> {
        self.jobs.poll().map(result)
    }

    /// Blocks until no job runs or waits; the newest result, if it arrived meanwhile (tests).
    pub fn wait(&mut self) -> Option<JobResult> {
        self.jobs.wait().map(result)
    }

    /// Whether the newest generation is still being made.
    pub fn busy(&self) -> bool {
        self.jobs.busy()
    }

    /// Whether no job runs or waits.
    pub fn idle(&self) -> bool {
        self.jobs.idle()
    }
}

/// A task's outcome as a job result: a panic is the job's error line.
fn result((generation, r): (u64, Result<JobResult, String>)) -> JobResult {
    r.unwrap_or_else(|e| JobResult {
        generation,
        outcome: Err(e),
        elapsed: Duration::ZERO,
    })
}

/// A picture and a cut of it: what the shape reader is asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeKey {
    /// The picture.
    pub source: ShapeSource,
    /// The folder a relative path starts from (the design file's).
    pub base: Option<PathBuf>,
    /// How it is cut (threshold, invert, pick, photo, turn).
    pub cutting: Cutting,
}

impl ShapeKey {
    /// `d`'s shape and cut, relative paths from `base`; `None` without a shape.
    pub fn of(d: &Design, base: Option<&Path>) -> Option<ShapeKey> {
        Some(ShapeKey {
            source: d.shape.clone()?,
            base: base.map(Path::to_path_buf),
            cutting: Cutting::of(d),
        })
    }
}

/// A cut the reader made: the foreground or the error line, and whether the picture looks like
/// a photo (the editor then opens the subject picker instead of showing the error).
#[derive(Clone, Debug)]
pub struct Cut {
    /// The foreground, or why there is none.
    pub foreground: Result<Arc<Foreground>, String>,
    /// The picture decoded but looks like a photo.
    pub photo: bool,
}

/// What one reading task gives back.
struct Read {
    cut: Cut,
    picture: Option<Arc<LoadedShape>>,
}

/// How many cuts the reader remembers (the design's, the picker's unturned one, a few more).
const REMEMBERED: usize = 4;

/// The shape reader: decodes and cuts pictures in background tasks, one at a time, through a
/// [`ShapeCache`] that only its tasks touch (a picture is decoded once for all its cuts). The UI
/// asks with [`Reader::want`] and reads finished cuts with [`Reader::get`]; it never waits.
pub struct Reader {
    spawner: Spawner,
    cache: Arc<Mutex<ShapeCache>>,
    running: Option<(ShapeKey, Task<Read>)>,
    queue: VecDeque<ShapeKey>,
    known: VecDeque<(ShapeKey, Cut)>,
    picture: Option<(ShapeSource, Option<PathBuf>, Arc<LoadedShape>)>,
}

impl Reader {
    /// A reader whose tasks `spawner` starts.
    pub fn new(spawner: Spawner) -> Reader {
        Reader {
            spawner,
            cache: Arc::new(Mutex::new(ShapeCache::keeping(1))),
            running: None,
            queue: VecDeque::new(),
            known: VecDeque::new(),
            picture: None,
        }
    }

    /// The cut `key` asks for, when it has been made.
    pub fn get(&self, key: &ShapeKey) -> Option<&Cut> {
        self.known.iter().find(|(k, _)| k == key).map(|(_, c)| c)
    }

    /// Asks for `key` to be read and cut, unless it is made, being made or asked for already
    /// (an inline task, in tests, is finished when this returns).
    pub fn want(&mut self, key: ShapeKey) {
        let asked = self.running.as_ref().is_some_and(|(k, _)| *k == key)
            || self.queue.contains(&key)
            || self.get(&key).is_some();
        if !asked {
            self.queue.push_back(key);
            if self.queue.len() > REMEMBERED {
                self.queue.pop_front();
            }
        }
        self.poll();
    }

    /// Picks up a finished cut and starts the next one asked for. Called every frame.
    pub fn poll(&mut self) {
        loop {
            if let Some((_, task)) = &self.running {
                let Some(r) = task.poll() else { return };
                let (key, _) = self.running.take().expect("a running task");
                self.keep(key, r);
            }
            let Some(key) = self.queue.pop_front() else {
                return;
            };
            self.start(key);
        }
    }

    /// Blocks until nothing is being read (tests, and the app's `finish_tasks` hook).
    pub fn wait(&mut self) {
        while let Some((_, task)) = &self.running {
            let r = task.wait();
            let (key, _) = self.running.take().expect("a running task");
            self.keep(key, r);
            if let Some(next) = self.queue.pop_front() {
                self.start(next);
            }
        }
    }

    /// Whether a picture is being read or waits to be.
    pub fn reading(&self) -> bool {
        self.running.is_some() || !self.queue.is_empty()
    }

    /// How long the picture being read has taken so far.
    pub fn elapsed(&self) -> Option<Duration> {
        self.running.as_ref().map(|(_, t)| t.elapsed())
    }

    /// Stops reading: nothing waiting is started, and the running task's result is dropped (a
    /// decoder cannot stop mid-picture; its thread finishes and its result goes nowhere).
    pub fn cancel(&mut self) {
        self.queue.clear();
        self.running = None;
    }

    /// The decoded picture of `source` (from `base`), if it was the last read.
    pub fn picture(&self, source: &ShapeSource, base: Option<&Path>) -> Option<Arc<LoadedShape>> {
        let (s, b, p) = self.picture.as_ref()?;
        (s == source && b.as_deref() == base).then(|| Arc::clone(p))
    }

    fn start(&mut self, key: ShapeKey) {
        let cache = Arc::clone(&self.cache);
        let job = key.clone();
        let task = self
            .spawner
            .spawn("reading the picture", move |_: &Control<()>| {
                read(&cache, &job)
            });
        self.running = Some((key, task));
    }

    fn keep(&mut self, key: ShapeKey, r: Result<Read, String>) {
        let r = r.unwrap_or_else(|panic| Read {
            cut: Cut {
                foreground: Err(panic),
                photo: false,
            },
            picture: None,
        });
        if let Some(p) = r.picture {
            self.picture = Some((key.source.clone(), key.base.clone(), p));
        }
        self.known.retain(|(k, _)| *k != key);
        self.known.push_back((key, r.cut));
        if self.known.len() > REMEMBERED {
            self.known.pop_front();
        }
    }
}

/// Reads and cuts `key` through the shared cache (a reading task's job).
fn read(cache: &Mutex<ShapeCache>, key: &ShapeKey) -> Read {
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    let fg = cache
        .foreground(
            &crate::io::Files,
            &key.source,
            key.base.as_deref(),
            &key.cutting,
        )
        .map_err(|e| e.to_string());
    let picture = cache.picture();
    let photo = fg.is_err()
        && picture
            .as_ref()
            .is_some_and(|p| crate::shape::photo::looks_like_photo(&p.picture));
    Read {
        cut: Cut {
            foreground: fg,
            photo,
        },
        picture,
    }
}

/// Where an export has got to: (step, steps in all, what it does).
pub type ExportStep = (usize, usize, &'static str);

/// The label of the checkpoint an export passes once its first bytes are written (tests hold
/// it there, a temporary file half written).
pub const WRITING: &str = "exporting: writing";

/// The line a cancelled export leaves in the status bar.
pub const EXPORT_CANCELLED: &str = "export cancelled; nothing was written";

/// Writes `made` (laid out on `page`) to `path` as `kind`: the export task's job. The pages are
/// laid out and checked first, then written atomically (with the key beside it for SVG and
/// PNG); cancelled at any point before the files are renamed into place, nothing is left.
/// Returns the status line.
pub fn export(
    made: &Made,
    page: &PageSetup,
    kind: ExportKind,
    path: &Path,
    c: &Control<ExportStep>,
) -> Result<String, String> {
    use crate::export::{Body, KeyPlacement, Later, Printed};
    let stop = c.handle();
    let format = match kind {
        ExportKind::Json => {
            c.report((1, 1, "writing"));
            return export_json(made, path, &stop);
        }
        ExportKind::Txt => {
            c.report((1, 1, "writing"));
            let text = made.text().map_err(|e| e.to_string())?;
            return crate::io::write_atomic(path, text.as_bytes())
                .map(|()| format!("exported {}", path.display()))
                .map_err(|e| e.to_string());
        }
        ExportKind::Print(f) => f,
    };
    c.report((1, 3, "laying out the pages"));
    let key = KeyPlacement::SecondPage;
    // the entry point's own print, as the command line's: the same pages and the same refusal
    // of corridors too narrow to print, whatever the style
    let printed = made.print(page, format, key).map_err(|e| e.to_string())?;
    c.report((2, 3, "checking"));
    // the preflight of what is written (for a PDF, its fonts too)
    let preflight = crate::preflight::check_printed(&printed, format)
        .map(|r| format!(" · {}", r.status()))
        .unwrap_or_default();
    if stop.cancelled() {
        return Ok(EXPORT_CANCELLED.into());
    }
    c.report((3, 3, "writing"));
    // each file written through a writer that stops when the task is cancelled
    let printed = Arc::new(printed);
    let guarded = |body: fn(&Printed) -> Option<&Body>| {
        let (printed, stop) = (Arc::clone(&printed), stop.clone());
        body(&printed).is_some().then(|| {
            Body::Written(Later(Arc::new(move |out: &mut dyn Write| {
                let body = body(&printed).expect("checked above");
                body.write_to(&mut Guard::new(out, &stop))
            })))
        })
    };
    let writing = Printed {
        pages: None,
        puzzle: guarded(|p| Some(&p.puzzle)).expect("a puzzle"),
        key: guarded(|p| p.key.as_ref()),
        warnings: Vec::new(),
    };
    match crate::io::write_printed(&writing, path) {
        Ok(written) => {
            let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
            Ok(format!("exported {}{preflight}", names.join(" and ")))
        }
        Err(_) if stop.cancelled() => Ok(EXPORT_CANCELLED.into()),
        Err(e) => Err(e.to_string()),
    }
}

/// [`export`] as JSON (streamed for a walls maze).
fn export_json(made: &Made, path: &Path, stop: &Handle) -> Result<String, String> {
    let written = crate::io::write_atomic_with(path, |w| made.write_json(&mut Guard::new(w, stop)));
    match written {
        Ok(()) => Ok(format!("exported {}", path.display())),
        Err(_) if stop.cancelled() => Ok(EXPORT_CANCELLED.into()),
        Err(e) => Err(e.to_string()),
    }
}

/// A writer that fails once its task is cancelled (the file's temporary is then removed), and
/// passes the [`WRITING`] checkpoint after its first bytes.
struct Guard<'a> {
    out: &'a mut dyn Write,
    stop: &'a Handle,
    started: bool,
}

impl<'a> Guard<'a> {
    fn new(out: &'a mut dyn Write, stop: &'a Handle) -> Guard<'a> {
        Guard {
            out,
            stop,
            started: false,
        }
    }
}

impl Write for Guard<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.stop.cancelled() {
            return Err(std::io::Error::other("cancelled"));
        }
        let n = self.out.write(buf)?;
        if !self.started {
            self.started = true;
            // what was written so far reaches the temporary file before the checkpoint
            self.out.flush()?;
            self.stop.checkpoint(WRITING);
            if self.stop.cancelled() {
                return Err(std::io::Error::other("cancelled"));
            }
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::{Kind, Walls};

    #[test]
    fn newest_result_wins_and_stale_ones_are_dropped() {
        let mut w = Worker::new(Spawner::new(|| {}));
        let big = Design {
            width: 150,
            height: 150,
            seed: Some(1),
            ..Design::default()
        };
        let g1 = w.next_generation();
        w.submit(g1, Job::plain(big.clone()));
        let g2 = w.next_generation();
        let small = Design {
            width: 5,
            height: 5,
            seed: Some(2),
            ..Design::default()
        };
        w.submit(g2, Job::plain(small));
        assert!(w.busy());
        let r = w.wait().expect("the newest result");
        assert_eq!(r.generation, g2);
        let made = r.outcome.unwrap();
        let crate::make::Made::Walls(g) = &made.made else {
            panic!("a walls design makes walls")
        };
        assert_eq!(g.metrics.cells, 25);
        assert!(made.preview.is_ok());
        assert!(!w.busy() && w.idle());
    }

    #[test]
    fn errors_come_back_as_text() {
        let r = run_job(
            1,
            &Job::plain(Design {
                kind: Kind::Walls(Walls {
                    braid: 2.0,
                    ..Walls::DEFAULT
                }),
                ..Design::default()
            }),
        );
        assert!(r.outcome.unwrap_err().contains("braid"));
    }
}
