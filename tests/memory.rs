//! Memory a big page takes to print (issue 20: a 2000 x 2000 PDF peaked at 2.2 GB, 550 bytes a
//! cell). A binary of its own, because it counts every allocation through its global
//! allocator: the peak of live heap bytes while one maze is rendered, per cell, for PDF, SVG and
//! PNG. The bounds hold with room to spare today and fail if printing goes back to holding an
//! object per point (printpdf's operations took over 100 bytes a point) or a copy of the walls
//! per page.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use hedge::design::Design;
use hedge::export::{Format, KeyPlacement};
use hedge::page::PageSetup;
use hedge::pipeline::generate;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on unchanged
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `alloc`
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let grow = new_size - layout.size();
                let now = LIVE.fetch_add(grow, Ordering::Relaxed) + grow;
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

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
