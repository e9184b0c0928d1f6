//! The central preview: the printed page itself, as pixels from the rasteriser that makes the
//! PNG export ([`crate::export::raster`]), so what the editor shows is what prints, page edge,
//! margins, title and markers included, pixel for pixel at the same scale.
//!
//! The page's display list and its overlays are made once per maze on the worker thread
//! ([`PagePreview::new`]). [`Raster`] keeps one texture of the page (or, when zoomed far in, of
//! the part on screen and a margin around it) at the current zoom: panning within it only moves
//! the texture; a new zoom, maze or overlay choice rasterises again on a background thread,
//! showing the previous texture scaled meanwhile (never a blank frame). Overlays that are not
//! printed (weave crossings, the mask and its necks, the trim line) are a layer of the drawing
//! ([`crate::draw::overlay`]), rasterised with it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::{Color32, ColorImage, Pos2, Rect, Sense, Stroke, TextureHandle, TextureOptions, Vec2};
use egui::{pos2, vec2};

use super::task::{Spawner, Task};
use crate::draw::overlay::{Overlays, Show};
use crate::draw::{self, Drawing, Item, Pos};
use crate::export::raster::{Region, page_pixels, rasterise};
use crate::page::PageSetup;
use crate::pipeline::Generated;

pub use crate::draw::overlay::NECK_PIECE;

/// A maze's printed pages and overlays, ready for the preview: made once per maze, off the UI
/// thread.
#[derive(Clone, Debug)]
pub struct PagePreview {
    /// The puzzle page, the answer-key page and the layout (the exporters' own drawings).
    pub pages: draw::Pages,
    /// What the editor shows on the pages but never prints (both pages share the layout).
    pub overlays: Overlays,
    /// Warnings for the person printing (narrow corridors, thinned walls).
    pub warnings: Vec<String>,
    /// The shape's cells that keeping its main part dropped (tinted on the page).
    pub dropped: Arc<[crate::topology::Coord]>,
}

impl PagePreview {
    /// Lays out `g` with `setup`, exactly as the exporters do (the key on the same setup, as for
    /// SVG and PNG), with its overlays.
    pub fn new(g: &Generated, setup: &PageSetup) -> Result<PagePreview, String> {
        PagePreview::shaped(g, setup, Arc::from([]))
    }

    /// [`PagePreview::new`] with the cells of the shape that were dropped (its parts not joined
    /// to the main one, [`crate::make::Prepared::dropped`]), tinted.
    pub fn shaped(
        g: &Generated,
        setup: &PageSetup,
        dropped: Arc<[crate::topology::Coord]>,
    ) -> Result<PagePreview, String> {
        let pages = draw::pages(g, setup, setup).map_err(|e| e.to_string())?;
        let overlays = Overlays::cells(
            g.maze.grid(),
            &g.maze.tunnels(),
            &dropped,
            &pages.layout,
            &pages.puzzle,
        )
        .with_hand_work(
            g.maze.grid(),
            &g.design.walls().lock,
            &g.design.walls().recarve,
            &pages.layout,
        );
        let mut p = PagePreview::with(pages, overlays);
        p.dropped = dropped;
        Ok(p)
    }

    /// The pages of what the entry point made (walls or tiles), laid out with `setup`, with the
    /// shape's `dropped` cells tinted.
    pub fn of(
        made: &crate::make::Made,
        setup: &PageSetup,
        dropped: Arc<[crate::topology::Coord]>,
    ) -> Result<PagePreview, String> {
        match made {
            crate::make::Made::Walls(g) => PagePreview::shaped(g, setup, dropped),
            crate::make::Made::Tiles(t) => PagePreview::tiles(&t.maze, setup),
        }
    }

    /// The printed pages of a tile maze: the exporters' own drawings (the key on the same
    /// setup, as for SVG and PNG), and its overlays (the maze's tiles for "show mask").
    pub fn tiles(
        m: &crate::tiles::puzzle::TileMaze,
        setup: &PageSetup,
    ) -> Result<PagePreview, String> {
        let pages = draw::tile_pages(m, setup, setup).map_err(|e| e.to_string())?;
        let overlays = Overlays::tiles(m, &pages.layout, &pages.puzzle);
        Ok(PagePreview::with(pages, overlays))
    }

    /// The preview of laid-out `pages` and their `overlays`.
    pub fn with(pages: draw::Pages, overlays: Overlays) -> PagePreview {
        let mut warnings = pages.layout.warnings();
        warnings.extend(draw::glyph_warnings([&pages.puzzle, &pages.key]));
        PagePreview {
            pages,
            overlays,
            warnings,
            dropped: Arc::from([]),
        }
    }

    /// The page shown: the answer key or the puzzle.
    pub fn drawing(&self, key: bool) -> &Drawing {
        if key {
            &self.pages.key
        } else {
            &self.pages.puzzle
        }
    }

    /// The items of the page shown, with the overlays `show` asks for, bottom to top.
    pub fn items(&self, key: bool, show: Show) -> impl Iterator<Item = &Item> {
        self.overlays.shown(self.drawing(key), show)
    }

    /// The maze point (maze units) under a page position (millimetres).
    pub fn maze_point(&self, p: Pos) -> crate::topology::Point {
        self.pages.layout.to_maze(p)
    }

    /// The page position (millimetres) of a maze point.
    pub fn page_point(&self, p: crate::topology::Point) -> Pos {
        self.pages.layout.to_page(p)
    }
}

/// Pan and zoom of the preview; the default fits the page to the panel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// Zoom relative to fit (1 = the whole page fits the panel).
    pub zoom: f32,
    /// Offset of the page's centre from the panel's centre, in points.
    pub pan: Vec2,
    /// Whether the page shown was wider than tall (`None` before the first page): a page
    /// that turns fits the panel again, since the pan and zoom chosen for the old one would
    /// put it partly off screen.
    pub landscape: Option<bool>,
}

impl Default for View {
    fn default() -> Self {
        View {
            zoom: 1.0,
            pan: Vec2::ZERO,
            landscape: None,
        }
    }
}

/// Where the page is on screen this frame: screen = origin + page mm * scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageOnScreen {
    /// The page's top-left corner on screen (on a whole physical pixel).
    pub origin: Pos2,
    /// Points per millimetre.
    pub scale: f32,
}

impl PageOnScreen {
    /// A page position on screen.
    pub fn to_screen(&self, p: Pos) -> Pos2 {
        self.origin + vec2(p.x as f32, p.y as f32) * self.scale
    }

    /// The page position under a screen point.
    pub fn to_page(&self, s: Pos2) -> Pos {
        let v = (s - self.origin) / self.scale;
        Pos::new(f64::from(v.x), f64::from(v.y))
    }
}

/// A whole page is rasterised (and panning never rasterises again) while it has at most this
/// many pixels at the current zoom; beyond, the part on screen and a margin of half a screen
/// around it.
pub const WHOLE_PAGE_PIXELS: u64 = 6_000_000;

/// What a raster shows: the pages (by id), which page, which overlays, at what scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RasterKey {
    /// The pages' id (changes whenever the pages do).
    pub id: u64,
    /// The answer-key page rather than the puzzle.
    pub key: bool,
    /// The overlays shown.
    pub show: Show,
    /// Pixels per millimetre.
    pub scale: f64,
}

/// A texture of (part of) a page, and its pixels (shared with the texture's image data).
struct Shown {
    key: RasterKey,
    region: Region,
    texture: TextureHandle,
    image: Arc<ColorImage>,
}

type Done = (RasterKey, Region, Result<ColorImage, String>, Duration);

/// The preview's pixels: the texture shown and the raster being made, kept between frames.
#[derive(Default)]
pub struct Raster {
    shown: Option<Shown>,
    pending: Option<Task<Done>>,
    /// Starts the rasterising tasks (the app's, so tests that run tasks inline get the pixels
    /// in the frame); without one, rasters are made in the frame.
    pub tasks: Option<Spawner>,
    /// How many rasters were made.
    pub builds: u64,
    /// How long the last one took (rasterising and converting to an image).
    pub last_build: Duration,
    /// Pixels in the texture shown.
    pub pixels: u64,
    /// The last rasterisation error (a region too large), if any.
    pub error: Option<String>,
}

impl Raster {
    /// A raster that makes its pixels with `tasks`.
    pub fn new(tasks: Spawner) -> Raster {
        Raster {
            tasks: Some(tasks),
            ..Raster::default()
        }
    }
}

/// Rasterises `preview`'s page for `key` into an egui image of `region`.
pub fn raster_image(
    preview: &PagePreview,
    key: RasterKey,
    region: &Region,
) -> Result<ColorImage, String> {
    let pix = rasterise(preview.items(key.key, key.show), region).map_err(|e| e.to_string())?;
    Ok(ColorImage::from_rgba_premultiplied(
        [pix.width() as usize, pix.height() as usize],
        pix.data(),
    ))
}

impl Raster {
    /// Whether a raster is being made in the background.
    pub fn busy(&self) -> bool {
        self.pending.is_some()
    }

    /// The key and region of the texture shown, if any.
    pub fn shown(&self) -> Option<(RasterKey, Region)> {
        self.shown.as_ref().map(|s| (s.key, s.region))
    }

    /// The pixels of the texture shown (the page's `region` at its scale), if any: what the
    /// preview shows, as the rasteriser made it.
    pub fn pixels(&self) -> Option<(RasterKey, Region, &ColorImage)> {
        self.shown.as_ref().map(|s| (s.key, s.region, &*s.image))
    }

    fn accept(&mut self, ctx: &egui::Context, done: Done) {
        let (key, region, image, took) = done;
        self.builds += 1;
        self.last_build = took;
        match image {
            Ok(image) => {
                self.error = None;
                self.pixels = region.pixels();
                let image = Arc::new(image);
                let data = egui::ImageData::Color(Arc::clone(&image));
                match &mut self.shown {
                    Some(s) => {
                        s.texture.set(data, TextureOptions::LINEAR);
                        s.key = key;
                        s.region = region;
                        s.image = image;
                    }
                    None => {
                        let texture = ctx.load_texture("hedge-page", data, TextureOptions::LINEAR);
                        self.shown = Some(Shown {
                            key,
                            region,
                            texture,
                            image,
                        });
                    }
                }
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Makes sure a raster of `region` for `key` is shown or on its way: nothing when the
    /// texture shown covers it; otherwise rasterises as a background task, one at a time (in
    /// the frame when nothing is shown yet, or when the app runs its tasks inline).
    fn want(
        &mut self,
        ctx: &egui::Context,
        preview: &Arc<PagePreview>,
        key: RasterKey,
        visible: &Region,
        region: Region,
    ) {
        if let Some(task) = &self.pending {
            // one at a time: a newer wish is looked at when this raster is done
            let Some(done) = task.poll() else { return };
            self.pending = None;
            match done {
                Ok(done) => self.accept(ctx, done),
                Err(line) => self.error = Some(line),
            }
        }
        if self
            .shown
            .as_ref()
            .is_some_and(|s| s.key == key && contains(&s.region, visible))
        {
            return;
        }
        if self.error.is_some() && self.shown.as_ref().is_some_and(|s| s.key == key) {
            return; // failed at this key already: do not retry every frame
        }
        let job = {
            let preview = Arc::clone(preview);
            move || {
                let start = Instant::now();
                let image = raster_image(&preview, key, &region);
                (key, region, image, start.elapsed())
            }
        };
        match &self.tasks {
            // the first raster is made in the frame, so the page never shows blank
            Some(tasks) if self.shown.is_some() => {
                let task = tasks.spawn("rasterising the page", move |_| job());
                match task.poll() {
                    Some(Ok(done)) => self.accept(ctx, done), // ran inline
                    Some(Err(line)) => self.error = Some(line),
                    None => self.pending = Some(task),
                }
            }
            _ => {
                let done = job();
                self.accept(ctx, done);
            }
        }
    }
}

/// Whether region `a` covers region `b` (the same scale).
fn contains(a: &Region, b: &Region) -> bool {
    a.scale == b.scale
        && a.x <= b.x
        && a.y <= b.y
        && a.x + i64::from(a.width) >= b.x + i64::from(b.width)
        && a.y + i64::from(a.height) >= b.y + i64::from(b.height)
}

/// The part of a `page_w` x `page_h` pixel page that lies inside the pixel rectangle
/// (`x0`, `y0`)-(`x1`, `y1`) (page pixels), as a region at `scale`; `None` when it is empty.
fn clip(scale: f64, page: (u32, u32), x0: f64, y0: f64, x1: f64, y1: f64) -> Option<Region> {
    let x = x0.floor().max(0.0) as i64;
    let y = y0.floor().max(0.0) as i64;
    let r = (x1.ceil() as i64).min(i64::from(page.0));
    let b = (y1.ceil() as i64).min(i64::from(page.1));
    (r > x && b > y).then(|| Region {
        scale,
        x,
        y,
        width: (r - x) as u32,
        height: (b - y) as u32,
    })
}

/// At most `max` pixels of `r` along one axis (from `start`, `len`), around its middle.
fn cap(start: i64, len: u32, max: u32) -> (i64, u32) {
    if len <= max {
        (start, len)
    } else {
        (start + i64::from((len - max) / 2), max)
    }
}

/// `visible` cut to at most `max_side` pixels each way, around its middle (a screen larger
/// than the GPU's largest texture shows the middle of the page part it would show).
pub fn capped(visible: &Region, max_side: u32) -> Region {
    let (x, width) = cap(visible.x, visible.width, max_side);
    let (y, height) = cap(visible.y, visible.height, max_side);
    Region {
        x,
        y,
        width,
        height,
        ..*visible
    }
}

/// What to rasterise for a page of `page` pixels at `scale` of which `visible` (at most
/// `max_side` each way, see [`capped`]) is on screen: the whole page when it is small enough,
/// else the visible part and up to half a screen around it, never over `max_side` each way.
pub fn region_for(scale: f64, page: (u32, u32), visible: &Region, max_side: u32) -> Region {
    let whole = u64::from(page.0) * u64::from(page.1);
    if whole <= WHOLE_PAGE_PIXELS && page.0 <= max_side && page.1 <= max_side {
        return Region {
            scale,
            x: 0,
            y: 0,
            width: page.0,
            height: page.1,
        };
    }
    let (w, h) = (f64::from(visible.width), f64::from(visible.height));
    let mx = (w / 2.0).min(((f64::from(max_side) - w) / 2.0).floor().max(0.0));
    let my = (h / 2.0).min(((f64::from(max_side) - h) / 2.0).floor().max(0.0));
    let (x, y) = (visible.x as f64, visible.y as f64);
    clip(scale, page, x - mx, y - my, x + w + mx, y + h + my).unwrap_or(*visible)
}

/// What the caller passes to [`show`].
pub struct Input<'a> {
    /// The pages (with an id that changes whenever they do), if there is a maze.
    pub preview: Option<(u64, &'a Arc<PagePreview>)>,
    /// Show the answer key page.
    pub answer_key: bool,
    /// Tint the weave crossings.
    pub crossings: bool,
    /// Show the mask (every cell tinted, necks in red).
    pub mask: bool,
    /// Whether a primary drag pans (false while a brush paints).
    pub drag_pans: bool,
}

/// Paints the page into all the space `ui` has left, handling pan and zoom on `view`. Returns
/// the response and where the page was painted (when there was one).
pub fn show(
    ui: &mut egui::Ui,
    input: &Input<'_>,
    view: &mut View,
    raster: &mut Raster,
) -> (egui::Response, Option<PageOnScreen>) {
    let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::accesskit::Role::Image, true, "Maze preview")
    });
    let painter = ui.painter_at(rect);
    let dark = ui.visuals().dark_mode;
    painter.rect_filled(
        rect,
        0.0,
        if dark {
            Color32::from_gray(40)
        } else {
            Color32::from_gray(200)
        },
    );
    let Some((id, preview)) = input.preview else {
        return (response, None);
    };
    if response.dragged_by(egui::PointerButton::Secondary)
        || response.dragged_by(egui::PointerButton::Middle)
        || (response.dragged_by(egui::PointerButton::Primary) && input.drag_pans)
    {
        view.pan += response.drag_delta();
    }
    if response.double_clicked() {
        *view = View::default();
    }
    let d = preview.drawing(input.answer_key);
    let page = vec2(d.width as f32, d.height as f32).max(vec2(1.0, 1.0));
    let landscape = page.x > page.y;
    if view.landscape.is_some_and(|l| l != landscape) {
        *view = View::default();
    }
    view.landscape = Some(landscape);
    let margin = 16.0;
    let fit = ((rect.width() - 2.0 * margin) / page.x)
        .min((rect.height() - 2.0 * margin) / page.y)
        .max(0.01);
    zoom(ui, &response, rect, view);
    let ppp = ui.ctx().pixels_per_point();
    let scale = fit * view.zoom;
    // the page's corner on a whole physical pixel, so the texture's pixels are the screen's
    let origin = ((rect.center() + view.pan - page * 0.5 * scale) * ppp).round() / ppp;
    let place = PageOnScreen { origin, scale };
    let page_rect = Rect::from_min_size(origin, page * scale);
    painter.rect_filled(
        page_rect.translate(vec2(3.0, 3.0)),
        0.0,
        Color32::from_black_alpha(70),
    );
    // the page in physical pixels, and the part of it on screen
    let px_per_mm = f64::from(scale * ppp);
    let page_px = page_pixels(d, px_per_mm);
    let (x0, y0) = ((rect.min - origin) * ppp).into();
    let (x1, y1) = ((rect.max - origin) * ppp).into();
    let key = RasterKey {
        id,
        key: input.answer_key,
        show: Show {
            crossings: input.crossings,
            mask: input.mask,
        },
        scale: px_per_mm,
    };
    if let Some(visible) = clip(
        px_per_mm,
        page_px,
        f64::from(x0),
        f64::from(y0),
        f64::from(x1),
        f64::from(y1),
    ) {
        let max_side = ui.input(|i| i.max_texture_side).min(u32::MAX as usize) as u32;
        let visible = capped(&visible, max_side);
        let region = region_for(px_per_mm, page_px, &visible, max_side);
        raster.want(ui.ctx(), preview, key, &visible, region);
    }
    paint_raster(&painter, raster, &place);
    painter.rect_stroke(
        page_rect,
        0.0,
        Stroke::new(1.0, Color32::from_gray(120)),
        egui::StrokeKind::Outside,
    );
    (response, Some(place))
}

/// Zooms `view` by the scroll wheel and the pinch while the pointer is over the preview, the
/// point under the pointer kept still.
fn zoom(ui: &egui::Ui, response: &egui::Response, rect: Rect, view: &mut View) {
    if let Some(hover) = response.hover_pos() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        let pinch = ui.input(|i| i.zoom_delta());
        let factor = (scroll * 0.002).exp() * pinch;
        if factor != 1.0 {
            let new_zoom = (view.zoom * factor).clamp(0.2, 80.0);
            let f = new_zoom / view.zoom;
            // keep the point under the pointer still
            let from_centre = hover - rect.center() - view.pan;
            view.pan -= from_centre * (f - 1.0);
            view.zoom = new_zoom;
        }
    }
}

/// Paints the raster on show: its part of the page, placed at the current zoom.
fn paint_raster(painter: &egui::Painter, raster: &Raster, place: &PageOnScreen) {
    if let Some(s) = &raster.shown {
        // the texture's part of the page, placed at the current zoom (scaled while a raster
        // for a new zoom is on its way)
        let k = s.region.scale;
        let a = Pos::new(s.region.x as f64 / k, s.region.y as f64 / k);
        let b = Pos::new(
            (s.region.x + i64::from(s.region.width)) as f64 / k,
            (s.region.y + i64::from(s.region.height)) as f64 / k,
        );
        let at = Rect::from_min_max(place.to_screen(a), place.to_screen(b));
        let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
        painter.image(s.texture.id(), at, uv, Color32::WHITE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::Design;
    use crate::design::{Kind, Walls};
    use crate::export::png;
    use crate::pipeline::generate;
    use crate::topology::TopologyKind;

    fn made(d: Design) -> (Generated, PagePreview) {
        let g = generate(&d, None).unwrap();
        let p = PagePreview::new(&g, &d.page).unwrap();
        (g, p)
    }

    fn key(scale: f64) -> RasterKey {
        RasterKey {
            id: 1,
            key: false,
            show: Show::default(),
            scale,
        }
    }

    #[test]
    fn the_preview_draws_the_exporters_pages() {
        let d = Design {
            seed: Some(3),
            ..Design::default()
        };
        let (g, p) = made(d.clone());
        let pages = draw::pages(&g, &d.page, &d.page).unwrap();
        assert_eq!(p.pages.puzzle, pages.puzzle);
        assert_eq!(p.pages.key, pages.key);
        // the page as the layout turned it (auto orientation)
        let (w, h) = d.page.oriented(pages.layout.orientation).page_mm();
        assert_eq!((p.pages.puzzle.width, p.pages.puzzle.height), (w, h));
        assert!(p.overlays.crossings.is_none());
        // with no overlay shown, the preview's items are the page's
        assert!(p.items(true, Show::default()).eq(p.pages.key.items.iter()));
    }

    #[test]
    fn the_preview_pixels_are_the_png_export() {
        // every topology, the key page, at 100 dpi: the preview's image and the PNG's pixels
        for kind in TopologyKind::ALL {
            let (_, p) = made(Design {
                kind: Kind::Walls(Walls {
                    topology: kind,
                    ..Walls::DEFAULT
                }),
                width: 9,
                height: 7,
                seed: Some(1),
                ..Design::default()
            });
            let d = &p.pages.key;
            let k = 100.0 / 25.4;
            let region = Region::page(d, k);
            let img = raster_image(
                &p,
                RasterKey {
                    key: true,
                    ..key(k)
                },
                &region,
            )
            .unwrap();
            let decoded = image::load_from_memory(&png::png(d, 100).unwrap())
                .unwrap()
                .to_rgba8();
            assert_eq!(
                [decoded.width() as usize, decoded.height() as usize],
                img.size
            );
            let same = decoded
                .pixels()
                .zip(&img.pixels)
                .all(|(a, b)| a.0 == b.to_array());
            assert!(same, "{kind}: the preview differs from the PNG");
        }
    }

    #[test]
    fn a_region_is_the_same_pixels_as_the_whole_page() {
        let (_, p) = made(Design {
            kind: Kind::Walls(Walls {
                weave: 0.5,
                ..Walls::DEFAULT
            }),
            width: 12,
            height: 12,
            seed: Some(5),
            ..Design::default()
        });
        let k = 6.0;
        let show = Show {
            crossings: true,
            mask: true,
        };
        let whole = raster_image(
            &p,
            RasterKey { show, ..key(k) },
            &Region::page(&p.pages.puzzle, k),
        )
        .unwrap();
        let part = Region {
            scale: k,
            x: 400,
            y: 500,
            width: 300,
            height: 200,
        };
        let img = raster_image(&p, RasterKey { show, ..key(k) }, &part).unwrap();
        // tiny-skia's anti-aliasing is not exactly translation-invariant in f32: allow one
        // level of difference on a channel (measured: at most 1, on a few pixels)
        let mut worst = 0u8;
        for y in 0..200 {
            for x in 0..300 {
                let a = img.pixels[y * 300 + x].to_array();
                let b = whole.pixels[(y + 500) * whole.size[0] + x + 400].to_array();
                for c in 0..4 {
                    worst = worst.max(a[c].abs_diff(b[c]));
                }
            }
        }
        assert!(
            worst <= 1,
            "a region differs from the page by {worst} levels"
        );
    }

    #[test]
    fn overlays_are_shown_but_never_printed() {
        let (g, p) = made(Design {
            kind: Kind::Walls(Walls {
                weave: 0.6,
                ..Walls::DEFAULT
            }),
            width: 12,
            height: 12,
            seed: Some(5),
            ..Design::default()
        });
        assert!(g.metrics.crossings > 0);
        assert_eq!(p.overlays.crossing_count, g.metrics.crossings);
        assert_eq!(p.overlays.cell_count, 144);
        let k = 3.0;
        let region = Region::page(&p.pages.puzzle, k);
        let plain = raster_image(&p, key(k), &region).unwrap();
        let tinted = raster_image(
            &p,
            RasterKey {
                show: Show {
                    crossings: true,
                    mask: false,
                },
                ..key(k)
            },
            &region,
        )
        .unwrap();
        let orange = |img: &ColorImage| {
            img.pixels
                .iter()
                .filter(|c| c.r() > 200 && c.g() > 150 && c.g() < 220 && c.b() < 170)
                .count()
        };
        assert_eq!(orange(&plain), 0);
        assert!(orange(&tinted) > 100 * g.metrics.crossings);
        // the exporters never see them
        let mut page = p.pages.puzzle.clone();
        let n = page.items.len();
        page.items.extend(p.overlays.crossings.clone());
        assert_eq!(page.items.len(), n + 1);
        assert_eq!(
            crate::export::svg::svg(&page),
            crate::export::svg::svg(&p.pages.puzzle)
        );
        assert_eq!(
            png::png(&page, 72).unwrap(),
            png::png(&p.pages.puzzle, 72).unwrap()
        );
    }

    #[test]
    fn the_dropped_parts_of_a_shape_are_tinted_and_never_printed() {
        // a square frame with a square island in its hole (two cells clear of it): keeping the
        // main part (asked for: by default a part this size is joined) drops the island, which
        // lies on the page the frame's layout fills
        let (w, h) = (200u32, 200u32);
        let bits: Vec<bool> = (0..w * h)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                let hole = (60..140).contains(&x) && (60..140).contains(&y);
                let island = (80..120).contains(&x) && (80..120).contains(&y);
                !hole || island
            })
            .collect();
        let fg = Arc::new(crate::shape::Foreground::from_bits(w, h, &bits).unwrap());
        let d = Design {
            width: 20,
            height: 20,
            seed: Some(4),
            outline: crate::design::OutlineStyle::Cells,
            islands: Some(crate::shape::Islands::KeepLargest),
            ..Design::default()
        };
        let prepared = crate::make::prepare_with(&d, Some(fg), Default::default()).unwrap();
        let dropped = prepared.dropped().to_vec();
        assert_eq!(dropped.len(), 16);
        let made = prepared.make().unwrap();
        let p = PagePreview::of(&made, &d.page, Arc::from(dropped.as_slice())).unwrap();
        assert_eq!(p.overlays.dropped_count, dropped.len());
        // shown without asking, on the overlay layer only
        let shown: Vec<&Item> = p.items(false, Show::default()).collect();
        let item = p.overlays.dropped.as_ref().unwrap();
        assert!(shown.iter().any(|i| std::ptr::eq(*i, item)));
        assert_eq!(item.layer, crate::draw::Layer::Overlay);
        let k = 3.0;
        let region = Region::page(&p.pages.puzzle, k);
        let tinted = raster_image(&p, key(k), &region).unwrap();
        let plain = PagePreview::of(&made, &d.page, Arc::from([])).unwrap();
        assert!(plain.overlays.dropped.is_none());
        let untinted = raster_image(&plain, key(k), &region).unwrap();
        let violet = |img: &ColorImage| {
            img.pixels
                .iter()
                .filter(|c| u16::from(c.b()) > u16::from(c.g()) + 20 && c.r() > c.g())
                .count()
        };
        assert_eq!(violet(&untinted), 0);
        assert!(violet(&tinted) > 20 * dropped.len(), "{}", violet(&tinted));
        // the exporters never see it
        let mut page = p.pages.puzzle.clone();
        page.items.push(item.clone());
        assert_eq!(
            crate::export::svg::svg(&page),
            crate::export::svg::svg(&p.pages.puzzle)
        );
    }

    #[test]
    fn a_small_page_is_rasterised_whole_and_a_big_one_around_the_screen() {
        let visible = Region {
            scale: 4.0,
            x: 100,
            y: 100,
            width: 800,
            height: 600,
        };
        let whole = region_for(4.0, (840, 1100), &visible, 8192);
        assert_eq!(
            (whole.x, whole.y, whole.width, whole.height),
            (0, 0, 840, 1100)
        );
        let visible = Region {
            scale: 40.0,
            ..visible
        };
        let big = region_for(40.0, (8400, 11000), &visible, 8192);
        assert_eq!((big.x, big.y, big.width, big.height), (0, 0, 1300, 1000));
        assert!(contains(&big, &visible));
        let far = Region {
            x: 4000,
            y: 5000,
            ..visible
        };
        let r = region_for(40.0, (8400, 11000), &far, 8192);
        assert_eq!((r.x, r.y, r.width, r.height), (3600, 4700, 1600, 1200));
        assert!(contains(&r, &far));
        // never wider than the GPU takes
        let r = region_for(40.0, (84000, 110000), &far, 1024);
        assert!(r.width <= 1024 && r.height <= 1024 && contains(&r, &far));
        let huge = Region { width: 3000, ..far };
        let c = capped(&huge, 2048);
        assert_eq!((c.x, c.width), (4476, 2048));
        let r = region_for(40.0, (84000, 110000), &c, 2048);
        assert!(r.width <= 2048 && contains(&r, &c));
    }

    #[test]
    fn panning_keeps_the_texture_and_zooming_makes_a_new_one() {
        let d = Design {
            seed: Some(2),
            ..Design::default()
        };
        let (_, p) = made(d);
        let p = Arc::new(p);
        let ctx = egui::Context::default();
        let mut raster = Raster::default();
        let mut view = View::default();
        let frame = |view: &mut View, raster: &mut Raster| {
            let input = egui::RawInput {
                screen_rect: Some(Rect::from_min_size(Pos2::ZERO, vec2(800.0, 600.0))),
                ..egui::RawInput::default()
            };
            let mut out = ctx.run_ui(input, |ui| {
                let input = Input {
                    preview: Some((1, &p)),
                    answer_key: false,
                    crossings: false,
                    mask: false,
                    drag_pans: true,
                };
                show(ui, &input, view, raster);
            });
            out.textures_delta.clear();
        };
        frame(&mut view, &mut raster);
        assert_eq!(raster.builds, 1);
        view.pan = vec2(30.0, -20.0);
        frame(&mut view, &mut raster);
        assert_eq!(raster.builds, 1, "panning rasterised again");
        view.zoom = 2.0;
        frame(&mut view, &mut raster);
        assert_eq!(raster.builds, 2);
        let (k, _) = raster.shown().unwrap();
        assert!(k.scale > 0.0 && raster.error.is_none());
    }
}
