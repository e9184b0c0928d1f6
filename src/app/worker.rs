//! The background generator: one long-lived thread that makes mazes off the UI thread.
//!
//! The UI hands it jobs numbered by a generation counter. The worker keeps only the newest job
//! waiting (a newer knob change replaces an older job that has not started), runs it, and sends a
//! typed [`JobResult`] back on a channel that the UI polls once per frame. A result whose
//! generation is not the newest is stale and dropped, so the preview always shows the latest knobs.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::design::Design;
use crate::make::Fit;
use crate::pipeline::{Generated, GeneratedTiles};
use crate::shape::Foreground;

use super::preview::PagePreview;

/// One maze to make: the design and, when it has a shape, the shape's foreground (decoded and
/// cut once by the app, shared here).
#[derive(Clone, Debug)]
pub struct Job {
    /// The design.
    pub design: Design,
    /// The design's shape, cut with its threshold and invert knobs.
    pub shape: Option<Arc<Foreground>>,
}

impl Job {
    /// A job for a design without a shape (or whose shape is ignored).
    pub fn plain(design: Design) -> Job {
        Job {
            design,
            shape: None,
        }
    }
}

/// What a generation job produced.
#[derive(Debug)]
pub struct JobResult {
    /// The generation number the job was submitted with.
    pub generation: u64,
    /// The maze and its pages, or the error as one readable line.
    pub outcome: Result<Made, String>,
    /// How long the pipeline took (maze, pages and all).
    pub elapsed: Duration,
}

/// What a job made: a maze of cells and walls, or a hex tile maze (the design's style).
#[derive(Debug)]
pub enum Product {
    /// A maze of cells and walls.
    Walls(Box<Generated>),
    /// A hex tile maze.
    Tiles(Box<GeneratedTiles>),
}

/// A maze and its preview, made together off the UI thread.
#[derive(Debug)]
pub struct Made {
    /// The maze.
    pub product: Product,
    /// Its printed pages (or why they cannot be laid out with the page setup).
    pub preview: Result<PagePreview, String>,
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

fn make(job: &Job) -> crate::error::Result<Made> {
    // the one entry point: the shape already cut by the app, the height already fitted
    let made = crate::make::prepare_with(&job.design, job.shape.clone(), Fit::default())?.make()?;
    let page = &job.design.page;
    Ok(match made {
        crate::make::Made::Tiles(tiles) => Made {
            preview: super::tiles::page_preview(&tiles.maze, page),
            product: Product::Tiles(Box::new(tiles)),
        },
        crate::make::Made::Walls(generated) => Made {
            preview: PagePreview::new(&generated, page),
            product: Product::Walls(Box::new(generated)),
        },
    })
}

#[derive(Default)]
struct Slot {
    job: Option<(u64, Job)>,
    shutdown: bool,
}

#[derive(Default)]
struct Shared {
    slot: Mutex<Slot>,
    wake: Condvar,
}

/// The handle the UI keeps: submit jobs, poll results.
pub struct Worker {
    shared: Arc<Shared>,
    results: Receiver<JobResult>,
    thread: Option<JoinHandle<()>>,
    latest: u64,
    done: u64,
}

impl Worker {
    /// Starts the worker thread. `wake` is called after each result is sent (the app passes a
    /// closure that requests a repaint, so the result is picked up at once).
    pub fn new(wake: impl Fn() + Send + 'static) -> Self {
        let shared = Arc::new(Shared::default());
        let (tx, results) = channel();
        let thread = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("hedge-generate".into())
                .spawn(move || worker_loop(&shared, &tx, &wake))
                .ok()
        };
        Worker {
            shared,
            results,
            thread,
            latest: 0,
            done: 0,
        }
    }

    /// A new generation number; results of every earlier one become stale.
    pub fn next_generation(&mut self) -> u64 {
        self.latest += 1;
        self.latest
    }

    /// Queues `design` under `generation` (from [`Worker::next_generation`]), replacing any job
    /// still waiting. Without a worker thread (it could not be spawned), runs it at once.
    pub fn submit(&mut self, generation: u64, job: Job) -> Option<JobResult> {
        if self.thread.is_none() {
            return Some(run_job(generation, &job));
        }
        if let Ok(mut slot) = self.shared.slot.lock() {
            slot.job = Some((generation, job));
            self.shared.wake.notify_one();
        }
        None
    }

    /// Marks `generation` as finished without the worker (an inline job).
    pub fn mark_done(&mut self, generation: u64) {
        self.done = self.done.max(generation);
    }

    /// The newest result, if one arrived since the last poll; stale results are dropped.
    pub fn poll(&mut self) -> Option<JobResult> {
        let mut newest = None;
        while let Ok(r) = self.results.try_recv() {
            if r.generation == self.latest {
                self.done = r.generation;
                newest = Some(r);
            }
        }
        newest
    }

    /// Whether the newest generation is still being made.
    pub fn busy(&self) -> bool {
        self.done < self.latest
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        if let Ok(mut slot) = self.shared.slot.lock() {
            slot.shutdown = true;
            slot.job = None;
        }
        // The thread finishes its current job (if any) and exits; no need to wait for it.
        self.shared.wake.notify_all();
    }
}

fn worker_loop(shared: &Shared, tx: &Sender<JobResult>, wake: &dyn Fn()) {
    loop {
        let (generation, job) = {
            let Ok(mut slot) = shared.slot.lock() else {
                return;
            };
            loop {
                if slot.shutdown {
                    return;
                }
                if let Some(job) = slot.job.take() {
                    break job;
                }
                slot = match shared.wake.wait(slot) {
                    Ok(s) => s,
                    Err(_) => return,
                };
            }
        };
        let result =
            std::panic::catch_unwind(|| run_job(generation, &job)).unwrap_or_else(|_| JobResult {
                generation,
                outcome: Err("internal error while making the maze (please report it)".into()),
                elapsed: Duration::ZERO,
            });
        if tx.send(result).is_err() {
            return;
        }
        wake();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newest_result_wins_and_stale_ones_are_dropped() {
        let mut w = Worker::new(|| {});
        let big = Design {
            width: 150,
            height: 150,
            seed: Some(1),
            ..Design::default()
        };
        let g1 = w.next_generation();
        assert!(w.submit(g1, Job::plain(big.clone())).is_none());
        let g2 = w.next_generation();
        let small = Design {
            width: 5,
            height: 5,
            seed: Some(2),
            ..Design::default()
        };
        w.submit(g2, Job::plain(small));
        assert!(w.busy());
        let start = Instant::now();
        let r = loop {
            if let Some(r) = w.poll() {
                break r;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "worker hung");
            std::thread::sleep(Duration::from_millis(2));
        };
        assert_eq!(r.generation, g2);
        let made = r.outcome.unwrap();
        let Product::Walls(g) = &made.product else {
            panic!("a walls design makes walls")
        };
        assert_eq!(g.metrics.cells, 25);
        assert!(made.preview.is_ok());
        assert!(!w.busy());
    }

    #[test]
    fn errors_come_back_as_text() {
        let r = run_job(
            1,
            &Job::plain(Design {
                braid: 2.0,
                ..Design::default()
            }),
        );
        assert!(r.outcome.unwrap_err().contains("braid"));
    }
}
