//! Memory a big page takes to print (issue 20: a 2000 x 2000 PDF peaked at 2.2 GB, 550 bytes a
//! cell). A binary of its own, because it counts every allocation through its global
//! allocator: the peak of live heap bytes while one maze is rendered, per cell, for PDF, SVG and
//! PNG. The bounds hold with room to spare today and fail if printing goes back to holding an
//! object per point (printpdf's operations took over 100 bytes a point) or a copy of the walls
//! per page.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use hedge::design::Design;
use hedge::export::Format;
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

/// Rendering a 400 x 400 maze (160,000 cells) in each format takes a bounded number of bytes a
/// cell on top of the maze itself. Measured: PDF and SVG 128, PNG (150 dpi) 189 bytes a cell,
/// the peak being the drawing of the pages (walls joined a band at a time) for PDF and SVG. Before, a 500 x 500 PDF
/// peaked at 528 bytes a cell (heaptrack): printpdf operations per point, walls joined over the
/// whole maze at once, and each page holding its own copy of the walls.
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
    for (format, most) in [
        (Format::Pdf, 200),
        (Format::Svg, 200),
        (Format::Png { dpi: 150 }, 320),
    ] {
        let peak = peak_of(|| {
            let r = hedge::export::render(&g, &setup, format).unwrap();
            assert!(!r.puzzle.is_empty());
        });
        let per_cell = peak / cells;
        println!("{format:?}: peak {peak} bytes, {per_cell} bytes a cell");
        assert!(
            per_cell <= most,
            "{format:?} took {per_cell} bytes a cell (at most {most})"
        );
    }
}
