//! Thumbnails of the book list's pages: each page's maze made from its design (as `hedge batch`
//! makes it, through the entry point), its puzzle page laid out and rasterised small by the
//! PNG export's own rasteriser. They are made one at a time as background tasks while the Book
//! window is open, so the window never waits; a page edited or added gets its own.

use egui::{ColorImage, TextureHandle, TextureOptions};

use super::task::{Spawner, Task};
use crate::design::Design;

/// The width of a page thumbnail, in pixels.
pub const WIDTH: u32 = 64;

/// How much darker a thumbnail's ink is drawn than the page's: its walls are a fraction of a
/// pixel wide at this size, and would be a faint grey.
const INK: u32 = 3;

/// The page thumbnails, as far as they are made.
pub struct PageThumbs {
    tasks: Spawner,
    /// The design being drawn.
    running: Option<(Design, Task<Option<ColorImage>>)>,
    /// Made thumbnails, by design (a page whose maze cannot be made has `None`).
    made: Vec<(Design, Option<TextureHandle>)>,
}

impl PageThumbs {
    /// No thumbnails yet; `tasks` will make them.
    pub fn new(tasks: Spawner) -> PageThumbs {
        PageThumbs {
            tasks,
            running: None,
            made: Vec::new(),
        }
    }

    /// Loads the thumbnail finished, if any, and starts the next page without one; forgets
    /// those of designs no longer among `pages` (the book list's designs, in order). Called
    /// every frame the Book window is shown.
    pub fn poll(&mut self, ctx: &egui::Context, pages: &[&Design]) {
        self.made.retain(|(d, _)| pages.contains(&d));
        loop {
            if let Some((design, task)) = &self.running {
                let Some(r) = task.poll() else { return };
                let texture = r.ok().flatten().map(|img| {
                    let name = format!("page-{}", self.made.len());
                    ctx.load_texture(name, img, TextureOptions::LINEAR)
                });
                self.made.push((design.clone(), texture));
                self.running = None;
            }
            let Some(next) = pages
                .iter()
                .find(|d| !self.made.iter().any(|(m, _)| m == **d))
                .map(|d| (*d).clone())
            else {
                return;
            };
            let d = next.clone();
            let task = self
                .tasks
                .spawn("drawing a page thumbnail", move |_| page_thumbnail(&d));
            self.running = Some((next, task));
        }
    }

    /// The thumbnail of the page with design `d`, if made.
    pub fn get(&self, d: &Design) -> Option<&TextureHandle> {
        self.made
            .iter()
            .find(|(m, _)| m == d)
            .and_then(|(_, t)| t.as_ref())
    }

    /// How many pages have their thumbnail (or are known to have none).
    pub fn count(&self) -> usize {
        self.made.len()
    }

    /// Whether a thumbnail is being drawn.
    pub fn busy(&self) -> bool {
        self.running.is_some()
    }
}

/// The puzzle page of design `d` (its maze made and laid out on its own page setup), drawn
/// [`WIDTH`] pixels wide; `None` when the maze or the page cannot be made.
pub fn page_thumbnail(d: &Design) -> Option<ColorImage> {
    use crate::export::raster::{Region, rasterise};
    let fit = crate::make::Fit {
        height: false,
        size_limit: None,
    };
    let made = crate::make::prepare(d, &crate::io::Files, None, fit)
        .ok()?
        .make()
        .ok()?;
    let (page, _) = made.puzzle_page(&d.page).ok()?;
    let region = Region::page(&page, f64::from(WIDTH) / page.width.max(1e-9));
    let pixmap = rasterise(page.items.iter(), &region).ok()?;
    // on white, opaque: each channel's ink (255 - value) made INK times darker
    let rgba: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| {
            let ink = |v: u8| 255 - ((255 - u32::from(v)) * INK).min(255) as u8;
            [ink(p[0]), ink(p[1]), ink(p[2]), 255]
        })
        .collect();
    Some(ColorImage::from_rgba_unmultiplied(
        [pixmap.width() as usize, pixmap.height() as usize],
        &rgba,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_thumbnail_is_its_puzzle_page_drawn_small() {
        let d = Design {
            width: 12,
            height: 12,
            seed: Some(4),
            ..Design::default()
        };
        let img = page_thumbnail(&d).expect("a maze on a page");
        assert_eq!(img.size[0], WIDTH as usize);
        // a portrait page: taller than wide
        assert!(img.size[1] > img.size[0], "{:?}", img.size);
        let dark = img.pixels.iter().filter(|p| p.r() < 128).count();
        let all = img.pixels.len();
        assert!(dark > all / 50 && dark < all / 2, "{dark} of {all}");
        // a design that makes no maze has no thumbnail
        let bad = Design {
            shape: Some(crate::shape::ShapeSource::File(
                "/no/such/picture.png".into(),
            )),
            ..d
        };
        assert!(page_thumbnail(&bad).is_none());
    }

    #[test]
    fn every_page_of_the_list_gets_its_thumbnail_and_a_removed_one_is_forgotten() {
        use crate::app::{Command, HedgeApp, Persisted, book::BookCommand};
        let mut app = HedgeApp::headless(Persisted::default());
        app.run_tasks_inline(true);
        for seed in [3, 4] {
            let d = Design {
                width: 10,
                height: 10,
                seed: Some(seed),
                ..app.design().clone()
            };
            crate::app::tests::edit(&mut app, d);
            crate::app::tests::settle(&mut app);
            app.apply(Command::Book(BookCommand::AddCurrent), None);
        }
        let ctx = egui::Context::default();
        let designs = |app: &HedgeApp| -> Vec<Design> {
            app.book
                .list
                .pages
                .iter()
                .map(|p| p.design.clone())
                .collect()
        };
        for _ in 0..4 {
            let d = designs(&app);
            app.work
                .page_thumbs_mut()
                .poll(&ctx, &d.iter().collect::<Vec<_>>());
        }
        assert_eq!(app.work.page_thumbs().count(), 2);
        for p in &app.book.list.pages {
            let t = app.work.page_thumbs().get(&p.design).expect("a thumbnail");
            assert_eq!(t.size()[0], WIDTH as usize);
        }
        app.apply(Command::Book(BookCommand::Remove(0)), None);
        let d = designs(&app);
        app.work
            .page_thumbs_mut()
            .poll(&ctx, &d.iter().collect::<Vec<_>>());
        assert_eq!(app.work.page_thumbs().count(), 1);
    }
}
