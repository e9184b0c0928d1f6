//! The background generator: makes mazes off the UI thread, through a [`Latest`] task stream.
//!
//! The UI hands it jobs numbered by a generation counter. At most one runs at a time; a newer
//! knob change replaces an older job that has not started; a finished job sends a typed
//! [`JobResult`] back on a channel that the UI polls once per frame. A result whose generation
//! is not the newest is stale and dropped, so the preview always shows the latest knobs.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::design::Design;
use crate::make::Fit;
use crate::shape::Foreground;

use super::preview::PagePreview;
use super::task::{Latest, Spawner};

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
    let made = prepared.make()?;
    let preview = PagePreview::of(&made, &job.design.page, Arc::from(prepared.dropped()));
    Ok(Finished { made, preview })
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
