//! Memory a big page takes to print (issue 20: a 2000 x 2000 PDF peaked at 2.2 GB, 550 bytes a
//! cell), and a maze takes in memory (issue 21). A binary of its own, because it counts every
//! allocation through its global allocator: the peak of live heap bytes while one maze is
//! rendered, per cell, for PDF, SVG and PNG, and while a grid and its maze are built. The bounds
//! hold with room to spare today and fail if printing goes back to holding an object per point
//! (printpdf's operations took over 100 bytes a point) or a copy of the walls per page.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use hedge::design::Design;
use hedge::export::{Format, KeyPlacement};
use hedge::page::PageSetup;
use hedge::pipeline::generate;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Bytes this thread allocated less those it freed: what one step on one thread kept, with
    /// no other thread's allocations counted (the test harness starts the next test's thread
    /// while this one runs).
    static MINE: std::cell::Cell<isize> = const { std::cell::Cell::new(0) };
}

/// Adds `bytes` to this thread's count (nothing while the thread is being torn down).
fn mine(bytes: isize) {
    let _ = MINE.try_with(|m| m.set(m.get() + bytes));
}
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on unchanged
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            mine(layout.size() as isize);
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        mine(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `alloc`
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let grow = new_size - layout.size();
                let now = LIVE.fetch_add(grow, Ordering::Relaxed) + grow;
                mine(grow as isize);
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
                mine(-((layout.size() - new_size) as isize));
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Held by each test while it counts: the counters are the whole process's, so two tests
/// running at once would count each other's bytes.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Peak heap bytes above what was live before `f` ran.
fn peak_of(f: impl FnOnce()) -> usize {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    f();
    PEAK.load(Ordering::Relaxed) - base
}

/// Counts the bytes written to it, keeping none: a file the printing streams into.
struct Counted(usize);

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Printing a 400 x 400 maze (160,000 cells) in each format as the command line and the editor
/// do (`export::print`: the pages laid out once, then each file made as it is written, never
/// held) takes a bounded number of bytes a cell on top of the maze itself. Measured on one
/// thread: 128 bytes a cell for PDF, SVG and PNG (150 dpi) alike, the peak being the drawing of
/// the pages, the walls joined a band of 65,536 cells at a time. Each more thread joins a band
/// of its own: 18 MB more on two threads, whatever the maze's size. Before (issue 20), a
/// 500 x 500 PDF peaked at 528 bytes a cell (heaptrack): printpdf operations per point, walls
/// joined over the whole maze at once, and each page holding its own copy of the walls; then
/// 189 for a PNG, with both files held in memory.
#[test]
fn printing_a_big_maze_takes_bounded_memory_per_cell() {
    let _alone = ONE_AT_A_TIME.lock().unwrap();
    let side = 400;
    let g = generate(
        &Design {
            width: side,
            height: side,
            seed: Some(1),
            ..Design::default()
        },
        None,
    )
    .unwrap();
    let cells = (side * side) as usize;
    let setup = PageSetup::default();
    let print = |format: Format| {
        let p = hedge::export::print(&g, &setup, format, KeyPlacement::SecondPage).unwrap();
        let mut out = Counted(0);
        for body in std::iter::once(&p.puzzle).chain(&p.key) {
            body.write_to(&mut out).unwrap();
        }
        assert!(out.0 > 0);
    };
    let threads = |n: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    let one = threads(1);
    for format in [Format::Pdf, Format::Svg, Format::Png { dpi: 150 }] {
        let peak = peak_of(|| one.install(|| print(format)));
        let per_cell = peak / cells;
        println!("{format:?}: peak {peak} bytes, {per_cell} bytes a cell");
        assert!(
            per_cell <= 140,
            "{format:?} took {per_cell} bytes a cell (at most 140)"
        );
    }
    // a second thread joins a second band at the same time: a band's worth more, not a cell's
    let serial = peak_of(|| one.install(|| print(Format::Pdf)));
    let two = peak_of(|| threads(2).install(|| print(Format::Pdf)));
    println!("Pdf on two threads: peak {two} bytes");
    assert!(
        two <= serial + (24 << 20),
        "two threads took {two} bytes, one {serial}"
    );
}

/// A maze in memory, grid and passages, under 24 bytes a cell (issue 21) on every topology,
/// counting the peak of building it on about 10^6 cells. An unmasked grid stores no neighbour
/// slots, computing them when asked (a lattice keeps a byte a cell: its parity and the edges it
/// touches); the maze keeps 2 bytes of passages a cell. Measured: 3.0 on rect, hex and tri, 2.0
/// on polar (before: rect 23.0, tri 18, hex and polar 33, with 4, 3 or 6 neighbour slots of 4
/// bytes a cell, a back-slot byte each and a degree byte; 38 on rect before that).
#[test]
fn a_grid_and_its_maze_take_under_24_bytes_a_cell() {
    let _alone = ONE_AT_A_TIME.lock().unwrap();
    use hedge::carve::{Algorithm, CarveOptions, carve};
    use hedge::grid::Grid;
    use hedge::maze::Maze;
    use hedge::random::MazeRng;
    use hedge::topology::{Topology, TopologyKind};
    use std::sync::Arc;
    for (kind, w, h) in [
        (TopologyKind::Rect, 1000, 1000),
        (TopologyKind::Hex, 1000, 1000),
        (TopologyKind::Tri, 1000, 1000),
        (TopologyKind::Polar, 565, 0),
    ] {
        let mut kept = None;
        let peak = peak_of(|| {
            let t = Topology::new(kind, w, h).unwrap();
            let grid = Arc::new(Grid::new(t, None).unwrap());
            kept = Some(Maze::new(grid));
        });
        let mut m = kept.unwrap();
        let per_cell = peak as f64 / m.len() as f64;
        println!("{kind}: grid + maze: peak {peak} bytes, {per_cell:.2} bytes a cell");
        assert!(
            per_cell < 24.0,
            "{kind}: grid + maze took {per_cell:.2} bytes a cell"
        );
        // and carving adds only its scratch, given back when it is done
        let before = MINE.with(|m| m.get());
        carve(
            &mut m,
            Algorithm::Backtracker,
            &mut MazeRng::new(1),
            &CarveOptions::default(),
        )
        .unwrap();
        assert!(m.is_perfect());
        assert_eq!(MINE.with(|m| m.get()), before, "{kind}");
    }
}

/// A book's memory is flat in its number of pages (issue 40): a book holds its mazes (3 bytes a
/// cell) and each page's text, never a page's drawing; its PDF draws and compresses each page in
/// its turn as it is written. Measured here on one thread, 200 x 200 pages (40,000 cells), the
/// book built and every file written: 2 pages and 8 pages peak within a few bytes a cell of
/// each other per added page (the maze kept, its solution, its page's facts). Before, each
/// page's drawing stayed in memory until the PDF was written: about 30 bytes a cell more per
/// page (20 pages of 1000 x 1000 peaked at 661 MB, 30 MB more a page).
#[test]
fn a_book_takes_memory_flat_in_its_pages() {
    let _alone = ONE_AT_A_TIME.lock().unwrap();
    let side = 200;
    let cells = side * side;
    let book_of = |pages: usize| {
        hedge::book::parse(
            &format!(
                "[book]\nanswers = \"at-back\"\nkeys_per_page = 1\n\
                 [[pages]]\ncount = {pages}\nseed_from = 1\nwidth = {side}\nheight = {side}\n"
            ),
            std::path::Path::new("."),
            &hedge::io::Files,
        )
        .unwrap()
    };
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let peak = |pages: usize| {
        let book = book_of(pages);
        peak_of(|| {
            one.install(|| {
                let built = hedge::book::build(&book, &hedge::io::Files, &|_, _| {}).unwrap();
                assert_eq!(built.puzzles, pages);
                let mut out = Counted(0);
                for f in &built.files {
                    f.body.write_to(&mut out).unwrap();
                }
                assert!(out.0 > 0);
            })
        })
    };
    let (few, many) = (peak(2), peak(8));
    let per_page_cell = many.saturating_sub(few) as f64 / 6.0 / cells as f64;
    println!(
        "book of 2 pages: peak {few} bytes; of 8: {many} bytes; {per_page_cell:.1} bytes a cell \
         more per page"
    );
    assert!(
        per_page_cell <= 10.0,
        "each page added {per_page_cell:.1} bytes a cell to the book's peak (at most 10)"
    );
}
