//! Background tasks: the one way the editor runs work off the UI thread (making a maze, the
//! difficulty search, the book export, the shape thumbnails).
//!
//! A [`Task`] is named, can be cancelled (a flag the job checks through its [`Control`]), reports
//! progress (a value the UI reads whenever it draws), and delivers a typed result on a channel
//! that the UI polls once per frame. A panic in the job is caught and becomes one error line.
//! [`Latest`] runs a stream of jobs of which only the newest matters (the maze for the newest
//! knobs): a job submitted while one runs waits, replacing any job already waiting, and results
//! of older submissions are dropped.
//!
//! Tasks are started by a [`Spawner`], which the app shares with every part that starts one.
//! Normally each task gets a thread of its own and wakes the window when it is done; switched to
//! inline (tests), the spawner runs the job on the calling thread before `spawn` returns, so a
//! frame that starts a task also sees it finished. Shaped after rerun's background tasks, with
//! a typed result instead of `dyn Any`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Called when a task reports progress or finishes (the app requests a repaint).
type Wake = Arc<dyn Fn() + Send + Sync>;

/// A test hook called on the task's own thread with the task's name when a job starts, and with
/// a label at each of its [checkpoints](Control::checkpoint): a test that blocks in it holds the
/// job there, deterministically (no sleeps), while it drives the UI.
pub type Gate = Arc<dyn Fn(&str) + Send + Sync>;

/// Starts tasks: on threads of their own, or inline on the calling thread (tests). Clones share
/// the inline switch, so one call switches every part of the app that holds a clone.
#[derive(Clone)]
pub struct Spawner {
    inline: Arc<AtomicBool>,
    gate: Arc<Mutex<Option<Gate>>>,
    wake: Wake,
}

impl std::fmt::Debug for Spawner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spawner")
            .field("inline", &self.inline())
            .finish_non_exhaustive()
    }
}

impl Spawner {
    /// A spawner that runs tasks on threads; `wake` is called whenever a task reports progress
    /// or finishes (the app passes a closure that requests a repaint).
    pub fn new(wake: impl Fn() + Send + Sync + 'static) -> Spawner {
        Spawner {
            inline: Arc::new(AtomicBool::new(false)),
            gate: Arc::new(Mutex::new(None)),
            wake: Arc::new(wake),
        }
    }

    /// Sets (or, with `None`, removes) the [`Gate`] of tasks started later (tests).
    pub fn set_gate(&self, gate: Option<Gate>) {
        *self.gate.lock().unwrap_or_else(|e| e.into_inner()) = gate;
    }

    /// Runs later tasks inline (on the thread that starts them, finished before `spawn`
    /// returns) or, with `false`, on threads of their own again.
    pub fn set_inline(&self, inline: bool) {
        self.inline.store(inline, Ordering::Relaxed);
    }

    /// Whether tasks run inline.
    pub fn inline(&self) -> bool {
        self.inline.load(Ordering::Relaxed)
    }

    /// Starts `job` as the task `name` (a phrase such as "making the maze": it names the thread
    /// and the error line of a panic).
    pub fn spawn<T, P>(
        &self,
        name: &'static str,
        job: impl FnOnce(&Control<P>) -> T + Send + 'static,
    ) -> Task<T, P>
    where
        T: Send + 'static,
        P: Send + 'static,
    {
        let gate = self.gate.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let shared = Arc::new(Shared {
            cancel: Arc::new(AtomicBool::new(false)),
            gate,
            state: Mutex::new(State {
                progress: None,
                finished: false,
            }),
            changed: Condvar::new(),
            wake: Arc::clone(&self.wake),
        });
        let (tx, result) = channel();
        let control = Control {
            shared: Arc::clone(&shared),
        };
        let run = {
            let tx = tx.clone();
            move || {
                control.checkpoint(name);
                let r = catch_unwind(AssertUnwindSafe(|| job(&control)))
                    .map_err(|panic| panic_line(name, panic.as_ref()));
                let _ = tx.send(r);
                control.finish();
            }
        };
        if self.inline() {
            // the job stands in for a thread of its own: its file I/O is not the UI thread's
            crate::io::off_ui_thread(run);
        } else if let Err(e) = std::thread::Builder::new()
            .name(format!("hedge: {name}"))
            .spawn(run)
        {
            let _ = tx.send(Err(format!("cannot start {name}: {e}")));
            Control {
                shared: Arc::clone(&shared),
            }
            .finish();
        }
        Task {
            name,
            shared,
            result,
            started: Instant::now(),
        }
    }
}

/// The error line of a job that panicked: what it was doing and the panic's first line.
fn panic_line(name: &str, panic: &(dyn std::any::Any + Send)) -> String {
    let what = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .and_then(|m| m.lines().next())
        .unwrap_or("a panic");
    format!("internal error while {name} (please report it): {what}")
}

struct State<P> {
    progress: Option<P>,
    finished: bool,
}

struct Shared<P> {
    cancel: Arc<AtomicBool>,
    gate: Option<Gate>,
    state: Mutex<State<P>>,
    changed: Condvar,
    wake: Wake,
}

impl<P> Shared<P> {
    fn state(&self) -> MutexGuard<'_, State<P>> {
        // a job cannot panic while holding the lock (it only stores a value), so a poisoned
        // lock still holds a whole value
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What a running job sees of its task: the cancel flag and where to report progress.
pub struct Control<P> {
    shared: Arc<Shared<P>>,
}

impl<P> Control<P> {
    /// Whether the task was asked to stop; a job that can stop early checks it now and then.
    pub fn cancelled(&self) -> bool {
        self.shared.cancel.load(Ordering::Relaxed)
    }

    /// The cancel flag itself, for library code that takes one.
    pub fn cancel_flag(&self) -> &AtomicBool {
        &self.shared.cancel
    }

    /// Calls the test [`Gate`], if one is set, with `label` (where the job has got to).
    pub fn checkpoint(&self, label: &str) {
        if let Some(gate) = &self.shared.gate {
            gate(label);
        }
    }

    /// The cancel flag and the gate, to hand to code that outlives the job's borrow of its
    /// control (a writer the library calls back).
    pub fn handle(&self) -> Handle {
        Handle {
            cancel: Arc::clone(&self.shared.cancel),
            gate: self.shared.gate.clone(),
        }
    }

    /// Reports progress: the UI reads the newest report (see [`Task::progress`]).
    pub fn report(&self, progress: P) {
        self.shared.state().progress = Some(progress);
        self.shared.changed.notify_all();
        (self.shared.wake)();
    }

    fn finish(&self) {
        let mut state = self.shared.state();
        state.finished = true;
        // woken under the lock: whoever sees `finished` knows the window was woken
        (self.shared.wake)();
        drop(state);
        self.shared.changed.notify_all();
    }
}

/// What [`Control::handle`] gives: the task's cancel flag and test gate, owned.
#[derive(Clone)]
pub struct Handle {
    cancel: Arc<AtomicBool>,
    gate: Option<Gate>,
}

impl Handle {
    /// Whether the task was asked to stop.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// As [`Control::checkpoint`].
    pub fn checkpoint(&self, label: &str) {
        if let Some(gate) = &self.gate {
            gate(label);
        }
    }
}

/// A job running in the background: its name, cancel flag, progress and result. Dropping it
/// cancels the job (its result is no longer wanted).
pub struct Task<T, P = ()> {
    name: &'static str,
    shared: Arc<Shared<P>>,
    result: Receiver<Result<T, String>>,
    started: Instant,
}

impl<T, P> std::fmt::Debug for Task<T, P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Task")
            .field("name", &self.name)
            .field("cancelled", &self.is_cancelled())
            .finish_non_exhaustive()
    }
}

impl<T, P> Task<T, P> {
    /// What the task does, as given to [`Spawner::spawn`].
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Asks the job to stop (it decides when; its result still arrives).
    pub fn cancel(&self) {
        self.shared.cancel.store(true, Ordering::Relaxed);
    }

    /// Whether [`Task::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.shared.cancel.load(Ordering::Relaxed)
    }

    /// How long ago the task started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The newest progress report, if the job made one.
    pub fn progress(&self) -> Option<P>
    where
        P: Clone,
    {
        self.shared.state().progress.clone()
    }

    /// The job's result, if it has finished (call once per frame; after `Some`, drop the task).
    /// A panic in the job comes back as one error line.
    pub fn poll(&self) -> Option<Result<T, String>> {
        match self.result.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(self.lost())),
        }
    }

    /// Blocks until the job has finished and returns its result (tests, and the app's
    /// [`finish_tasks`](super::HedgeApp::finish_tasks) hook). It returns only once the job has
    /// also woken the window (the result is sent just before), so a frame run afterwards sees
    /// every repaint the job asked for, not one arriving part-way through.
    pub fn wait(&self) -> Result<T, String> {
        let r = self.result.recv().map_err(|_| self.lost());
        if r.is_ok() {
            let mut state = self.shared.state();
            while !state.finished {
                state = self
                    .shared
                    .changed
                    .wait(state)
                    .unwrap_or_else(|e| e.into_inner());
            }
        }
        r.and_then(|r| r)
    }

    /// Blocks until a progress report satisfies `until` or the job has finished (tests: a
    /// deterministic "the search is under way").
    pub fn wait_for_progress(&self, until: impl Fn(&P) -> bool) {
        let mut state = self.shared.state();
        while !state.finished && !state.progress.as_ref().is_some_and(&until) {
            state = self
                .shared
                .changed
                .wait(state)
                .unwrap_or_else(|e| e.into_inner());
        }
    }

    fn lost(&self) -> String {
        format!("{} stopped without an answer", self.name)
    }
}

impl<T, P> Drop for Task<T, P> {
    fn drop(&mut self) {
        // an app closed (or a test ended) mid-task does not leave the job running for nothing
        self.cancel();
    }
}

/// A job of a [`Latest`] stream.
type Job<T> = Box<dyn FnOnce(&Control<()>) -> T + Send>;

/// Runs a stream of jobs numbered by generation, of which only the newest matters: at most one
/// runs at a time; a job submitted meanwhile waits (replacing any job already waiting, which
/// never runs), and a result whose generation is not the newest is stale and dropped.
pub struct Latest<T> {
    name: &'static str,
    spawner: Spawner,
    running: Option<(u64, Task<T>)>,
    waiting: Option<(u64, Job<T>)>,
    latest: u64,
    done: u64,
}

impl<T: Send + 'static> Latest<T> {
    /// An idle stream whose tasks are called `name` and started by `spawner`.
    pub fn new(name: &'static str, spawner: Spawner) -> Latest<T> {
        Latest {
            name,
            spawner,
            running: None,
            waiting: None,
            latest: 0,
            done: 0,
        }
    }

    /// A new generation number; results of every earlier one become stale.
    pub fn next_generation(&mut self) -> u64 {
        self.latest += 1;
        self.latest
    }

    /// Starts `job` under `generation` (from [`Latest::next_generation`]), or, while another
    /// job runs, keeps it waiting in place of any job already waiting (the running one is asked
    /// to cancel: it is stale).
    pub fn submit(
        &mut self,
        generation: u64,
        job: impl FnOnce(&Control<()>) -> T + Send + 'static,
    ) {
        match &self.running {
            Some((_, task)) => {
                task.cancel();
                self.waiting = Some((generation, Box::new(job)));
            }
            None => self.start(generation, Box::new(job)),
        }
    }

    fn start(&mut self, generation: u64, job: Job<T>) {
        self.running = Some((generation, self.spawner.spawn(self.name, job)));
    }

    /// Marks `generation` as finished without a task (a job the caller ran itself).
    pub fn mark_done(&mut self, generation: u64) {
        self.done = self.done.max(generation);
    }

    /// The newest generation's result, if it arrived since the last poll (stale results are
    /// dropped); starts the waiting job when the running one is done.
    pub fn poll(&mut self) -> Option<(u64, Result<T, String>)> {
        self.drain(false)
    }

    /// Blocks until no job runs or waits; returns the newest generation's result if it
    /// arrived meanwhile (tests, and the app's `finish_tasks` hook).
    pub fn wait(&mut self) -> Option<(u64, Result<T, String>)> {
        self.drain(true)
    }

    fn drain(&mut self, block: bool) -> Option<(u64, Result<T, String>)> {
        let mut newest = None;
        while let Some((generation, task)) = &self.running {
            let r = if block {
                task.wait()
            } else {
                match task.poll() {
                    Some(r) => r,
                    None => break,
                }
            };
            let generation = *generation;
            self.running = None;
            if generation == self.latest {
                self.done = generation;
                newest = Some((generation, r));
            }
            if let Some((g, job)) = self.waiting.take() {
                self.start(g, job);
            }
        }
        newest
    }

    /// Whether the newest generation is still being made.
    pub fn busy(&self) -> bool {
        self.done < self.latest
    }

    /// Whether no job runs or waits (a stale one may still run while [`Latest::busy`] is false).
    pub fn idle(&self) -> bool {
        self.running.is_none() && self.waiting.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::sync::mpsc::sync_channel;

    fn threads() -> Spawner {
        Spawner::new(|| {})
    }

    #[test]
    fn a_cancelled_job_sees_its_flag() {
        let (release, hold) = sync_channel::<()>(0);
        let task = threads().spawn("counting", move |c: &Control<u32>| {
            let before = c.cancelled();
            c.report(1);
            // hold here until the test has cancelled
            let _ = hold.recv();
            (
                before,
                c.cancelled(),
                c.cancel_flag().load(Ordering::Relaxed),
            )
        });
        task.wait_for_progress(|&p| p == 1);
        assert!(!task.is_cancelled());
        task.cancel();
        assert!(task.is_cancelled());
        release.send(()).unwrap();
        assert_eq!(task.wait(), Ok((false, true, true)));
        assert_eq!(task.name(), "counting");
    }

    #[test]
    fn progress_is_the_newest_report() {
        let s = threads();
        let (go, wait) = sync_channel::<()>(0);
        let task = s.spawn("reporting", move |c: &Control<(usize, usize)>| {
            c.report((1, 3));
            c.report((2, 3));
            // hold here until the test has seen the report
            let _ = wait.recv();
            c.report((3, 3));
            "done"
        });
        task.wait_for_progress(|&(done, _)| done == 2);
        assert_eq!(task.progress(), Some((2, 3)));
        assert_eq!(task.poll(), None, "still running");
        go.send(()).unwrap();
        assert_eq!(task.wait(), Ok("done"));
        assert_eq!(task.progress(), Some((3, 3)));
        // a job that never reports has no progress
        let quiet = s.spawn("quiet", |_: &Control<u8>| ());
        quiet.wait().unwrap();
        assert_eq!(quiet.progress(), None);
    }

    #[test]
    fn a_panic_is_one_error_line() {
        for inline in [false, true] {
            let s = threads();
            s.set_inline(inline);
            let task = s.spawn("making the maze", |_: &Control<()>| -> u32 {
                panic!("index out of bounds\nsecond line")
            });
            let e = task.wait().unwrap_err();
            assert_eq!(
                e,
                "internal error while making the maze (please report it): index out of bounds"
            );
            // formatted panics (a String payload) too
            let n = 7;
            let task = s.spawn("searching", move |_: &Control<()>| -> u32 {
                panic!("bad {n}")
            });
            assert!(task.wait().unwrap_err().ends_with(": bad 7"));
        }
    }

    #[test]
    fn inline_tasks_run_on_the_calling_thread_before_spawn_returns() {
        let s = threads();
        s.set_inline(true);
        let clone = s.clone();
        assert!(clone.inline(), "clones share the switch");
        let me = std::thread::current().id();
        let task = clone.spawn("here", move |c: &Control<u8>| {
            c.report(9);
            std::thread::current().id() == me
        });
        assert_eq!(task.poll(), Some(Ok(true)));
        assert_eq!(task.progress(), Some(9));
        s.set_inline(false);
        let task = clone.spawn("there", move |_: &Control<u8>| {
            std::thread::current().id() == me
        });
        assert_eq!(task.wait(), Ok(false));
    }

    #[test]
    fn a_gate_holds_a_job_at_its_start_and_checkpoints() {
        let s = threads();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (release, hold) = sync_channel::<()>(0);
        let hold = Mutex::new(hold);
        s.set_gate(Some(Arc::new({
            let seen = Arc::clone(&seen);
            move |at: &str| {
                seen.lock().unwrap().push(at.to_string());
                if at == "half way" {
                    let _ = hold.lock().unwrap().recv();
                }
            }
        })));
        let task = s.spawn("gated", |c: &Control<u8>| {
            c.report(1);
            c.handle().checkpoint("half way");
            c.handle().cancelled()
        });
        task.wait_for_progress(|&p| p == 1);
        task.cancel();
        assert_eq!(task.poll(), None, "held at its checkpoint");
        release.send(()).unwrap();
        assert_eq!(task.wait(), Ok(true), "the handle sees the cancel");
        assert_eq!(*seen.lock().unwrap(), ["gated", "half way"]);
        s.set_gate(None);
        s.spawn("free", |_: &Control<()>| ()).wait().unwrap();
        assert_eq!(seen.lock().unwrap().len(), 2);
    }

    #[test]
    fn wake_is_called_when_a_task_finishes() {
        let woken = Arc::new(AtomicUsize::new(0));
        let s = {
            let woken = Arc::clone(&woken);
            Spawner::new(move || {
                woken.fetch_add(1, Ordering::Relaxed);
            })
        };
        let task = s.spawn("waking", |c: &Control<u8>| c.report(1));
        task.wait().unwrap();
        // `wait` returns only after the finish woke the window (a frame run next sees it)
        assert_eq!(woken.load(Ordering::Relaxed), 2, "one report, one finish");
    }

    #[test]
    fn the_newest_job_wins_and_stale_results_are_dropped() {
        let ran = Arc::new(Mutex::new(Vec::new()));
        let mut latest: Latest<u64> = Latest::new("making", threads());
        let (release, hold) = sync_channel::<()>(0);
        let job = |g: u64, hold: Option<std::sync::mpsc::Receiver<()>>| {
            let ran = Arc::clone(&ran);
            move |_: &Control<()>| {
                if let Some(h) = hold {
                    let _ = h.recv();
                }
                ran.lock().unwrap().push(g);
                g * 10
            }
        };
        let g1 = latest.next_generation();
        latest.submit(g1, job(g1, Some(hold)));
        // g1 runs (held); g2 waits, then g3 replaces it
        let g2 = latest.next_generation();
        latest.submit(g2, job(g2, None));
        let g3 = latest.next_generation();
        latest.submit(g3, job(g3, None));
        assert!(latest.busy() && !latest.idle());
        assert_eq!(latest.poll(), None, "g1 is held");
        release.send(()).unwrap();
        assert_eq!(latest.wait(), Some((g3, Ok(30))), "g1's result is stale");
        assert_eq!(
            *ran.lock().unwrap(),
            [g1, g3],
            "g2 was replaced before it ran"
        );
        assert!(!latest.busy() && latest.idle());

        // inline: the same rules, without threads
        let s = threads();
        s.set_inline(true);
        let mut latest: Latest<u64> = Latest::new("making", s);
        let g1 = latest.next_generation();
        latest.submit(g1, |_: &Control<()>| 1);
        let g2 = latest.next_generation();
        latest.submit(g2, |_: &Control<()>| 2);
        assert_eq!(latest.poll(), Some((g2, Ok(2))));
        assert_eq!(latest.poll(), None);
        let g3 = latest.next_generation();
        latest.mark_done(g3);
        assert!(!latest.busy());
    }
}
