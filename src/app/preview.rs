//! The central preview: the printed page itself. It renders the same [`crate::draw::Drawing`]
//! (the display list in millimetres) that the SVG, PDF and PNG exporters render, so what the
//! editor shows is what prints, page edge, margins, title and markers included.
//!
//! The display list is made once per maze on the worker thread ([`PagePreview::new`]). Its
//! strokes and fills are tessellated into one [`egui::Mesh`] once per maze and zoom level
//! ([`MeshCache`]); panning and idle repaints only move that mesh. The few lines of text are laid
//! out by egui each frame. The weave "show crossings" tint is an overlay drawn from the maze's
//! tunnels (the Drawing has no tint: it is not printed).

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::epaint::{PathShape, TessellationOptions, Tessellator};
use egui::{Align2, Color32, FontId, Mesh, Pos2, Rect, Sense, Stroke, Vec2, pos2, vec2};

use crate::draw::{self, Anchor, Drawing, Pos, Rgb, Seg};
use crate::page::{PageSetup, Typeface};
use crate::pipeline::Generated;

/// A maze's printed pages, ready for the preview: made once per maze, off the UI thread.
#[derive(Clone, Debug)]
pub struct PagePreview {
    /// The puzzle page, the answer-key page and the layout (the exporters' own drawings).
    pub pages: draw::Pages,
    /// Each weave crossing's crossed cell as a polygon on the page, in millimetres.
    pub crossings: Vec<Vec<Pos>>,
    /// Warnings for the person printing (narrow corridors, thinned walls).
    pub warnings: Vec<String>,
    /// Every cell of the maze (its mask) as a polygon on the page, for the "show mask" overlay.
    pub cells: Vec<Vec<Pos>>,
    /// The cells whose loss would split the shape (one-cell necks), as polygons on the page.
    pub necks: Vec<Vec<Pos>>,
}

impl PagePreview {
    /// Lays out `g` with `setup`, exactly as the exporters do (the key on the same setup, as for
    /// SVG and PNG).
    pub fn new(g: &Generated, setup: &PageSetup) -> Result<PagePreview, String> {
        let pages = draw::pages(g, setup, setup).map_err(|e| e.to_string())?;
        let lay = &pages.layout;
        let grid = g.maze.grid();
        let mut sides = Vec::new();
        let crossings = g
            .maze
            .tunnels()
            .iter()
            .map(|t| {
                sides.clear();
                grid.sides(t.under, &mut sides);
                sides
                    .iter()
                    .map(|s| {
                        Pos::new(
                            lay.origin.x + s.a.x * lay.scale,
                            lay.origin.y + s.a.y * lay.scale,
                        )
                    })
                    .collect()
            })
            .collect();
        let warnings = pages.layout.warnings();
        let to_page = |p: crate::topology::Point| {
            Pos::new(
                lay.origin.x + p.x * lay.scale,
                lay.origin.y + p.y * lay.scale,
            )
        };
        let topology = grid.topology();
        let polygon = |c: crate::topology::Coord, sides: &mut Vec<crate::topology::Side>| {
            sides.clear();
            topology.tess().sides(c, sides);
            sides.iter().map(|s| to_page(s.a)).collect::<Vec<_>>()
        };
        let mut mask = crate::mask::Mask::empty(topology).map_err(|e| e.to_string())?;
        let mut cells = Vec::with_capacity(grid.len());
        for id in grid.cells() {
            let c = grid.coord(id);
            mask.set(c, true);
            cells.push(polygon(c, &mut sides));
        }
        let necks = crate::shape::necks(&mask, topology, NECK_PIECE)
            .into_iter()
            .map(|c| polygon(c, &mut sides))
            .collect();
        Ok(PagePreview {
            pages,
            crossings,
            warnings,
            cells,
            necks,
        })
    }

    /// The page shown: the answer key or the puzzle.
    pub fn drawing(&self, key: bool) -> &Drawing {
        if key {
            &self.pages.key
        } else {
            &self.pages.puzzle
        }
    }

    /// The maze point (maze units) under a page position (millimetres).
    pub fn maze_point(&self, p: Pos) -> crate::topology::Point {
        let lay = &self.pages.layout;
        crate::topology::Point::new(
            (p.x - lay.origin.x) / lay.scale,
            (p.y - lay.origin.y) / lay.scale,
        )
    }

    /// The page position (millimetres) of a maze point.
    pub fn page_point(&self, p: crate::topology::Point) -> Pos {
        let lay = &self.pages.layout;
        Pos::new(
            lay.origin.x + p.x * lay.scale,
            lay.origin.y + p.y * lay.scale,
        )
    }
}

/// Pan and zoom of the preview; the default fits the page to the panel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// Zoom relative to fit (1 = the whole page fits the panel).
    pub zoom: f32,
    /// Offset of the page's centre from the panel's centre, in points.
    pub pan: Vec2,
}

impl Default for View {
    fn default() -> Self {
        View {
            zoom: 1.0,
            pan: Vec2::ZERO,
        }
    }
}

/// Where the page is on screen this frame: screen = origin + page mm * scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// The page's top-left corner on screen.
    pub origin: Pos2,
    /// Points per millimetre.
    pub scale: f32,
}

impl Placement {
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

/// A neck is highlighted when losing it would cut off at least this many cells.
pub const NECK_PIECE: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq)]
struct MeshKey {
    id: u64,
    key: bool,
    crossings: bool,
    mask: bool,
    scale: f32,
    pixels_per_point: f32,
}

/// The tessellated page, kept between frames: rebuilt only when the maze, the page shown, the
/// tint or the zoom changes.
#[derive(Default)]
pub struct MeshCache {
    key: Option<MeshKey>,
    /// The page's geometry with its top-left corner at (0, 0).
    mesh: Arc<Mesh>,
    /// The same mesh moved to where it was last painted.
    placed: Option<(Pos2, Arc<Mesh>)>,
    /// How many times the page was tessellated.
    pub builds: u64,
    /// How long the last tessellation took.
    pub last_build: Duration,
    /// Vertices in the mesh.
    pub vertices: usize,
}

impl MeshCache {
    fn mesh_at(
        &mut self,
        key: MeshKey,
        preview: &PagePreview,
        origin: Pos2,
        tint: Color32,
    ) -> Arc<Mesh> {
        if self.key != Some(key) {
            let start = Instant::now();
            let mut mesh = tessellate(
                preview.drawing(key.key),
                key.crossings.then_some(&preview.crossings[..]),
                tint,
                key.scale,
                key.pixels_per_point,
            );
            if key.mask {
                let mut t = Tessellator::new(
                    key.pixels_per_point,
                    TessellationOptions::default(),
                    [1, 1],
                    Vec::new(),
                );
                tint_cells(&mut t, &mut mesh, &preview.cells, MASK_TINT, key.scale);
                tint_cells(&mut t, &mut mesh, &preview.necks, NECK_TINT, key.scale);
            }
            self.vertices = mesh.vertices.len();
            self.mesh = Arc::new(mesh);
            self.key = Some(key);
            self.placed = None;
            self.builds += 1;
            self.last_build = start.elapsed();
        }
        match &self.placed {
            Some((at, m)) if *at == origin => Arc::clone(m),
            _ => {
                let mut m = (*self.mesh).clone();
                m.translate(origin.to_vec2());
                let m = Arc::new(m);
                self.placed = Some((origin, Arc::clone(&m)));
                m
            }
        }
    }
}

fn color(c: Rgb) -> Color32 {
    Color32::from_rgb(c.0, c.1, c.2)
}

/// The subpaths of `path` as polylines in points (`scale` points per millimetre), each with
/// whether it was closed. Curves are cut into pieces about 3 points long.
pub fn flatten(path: &draw::Path, scale: f32) -> Vec<(Vec<Pos2>, bool)> {
    let tp = |p: Pos| pos2(p.x as f32 * scale, p.y as f32 * scale);
    let mut out = Vec::new();
    let mut cur: Vec<Pos2> = Vec::new();
    for seg in &path.segs {
        match *seg {
            Seg::MoveTo(p) => {
                if cur.len() >= 2 {
                    out.push((std::mem::take(&mut cur), false));
                }
                cur.clear();
                cur.push(tp(p));
            }
            Seg::LineTo(p) => cur.push(tp(p)),
            Seg::CubicTo(c1, c2, p) => {
                let (a, b, c) = (tp(c1), tp(c2), tp(p));
                let p0 = cur.last().copied().unwrap_or(a);
                let len = p0.distance(a) + a.distance(b) + b.distance(c);
                let n = ((len / 3.0).ceil() as usize).clamp(1, 64);
                for i in 1..=n {
                    let t = i as f32 / n as f32;
                    let u = 1.0 - t;
                    let w = [u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t];
                    cur.push(pos2(
                        w[0] * p0.x + w[1] * a.x + w[2] * b.x + w[3] * c.x,
                        w[0] * p0.y + w[1] * a.y + w[2] * b.y + w[3] * c.y,
                    ));
                }
            }
            Seg::Close => {
                if cur.len() >= 2 {
                    let start = cur[0];
                    out.push((std::mem::take(&mut cur), true));
                    cur.push(start);
                } else {
                    cur.clear();
                }
            }
        }
    }
    if cur.len() >= 2 {
        out.push((cur, false));
    }
    out
}

/// Tessellates the strokes and fills of `d` (not its text) at `scale` points per millimetre,
/// with the page's top-left corner at (0, 0), plus the crossing tint when given.
pub fn tessellate(
    d: &Drawing,
    crossings: Option<&[Vec<Pos>]>,
    tint: Color32,
    scale: f32,
    pixels_per_point: f32,
) -> Mesh {
    let mut t = Tessellator::new(
        pixels_per_point,
        TessellationOptions::default(),
        [1, 1],
        Vec::new(),
    );
    let mut mesh = Mesh::default();
    for item in &d.items {
        if let (Some(cells), draw::Layer::Markers) = (crossings, item.layer) {
            // the tint goes over the crossings, under the markers, text and solution
            tint_cells(&mut t, &mut mesh, cells, tint, scale);
        }
        match &item.shape {
            draw::Shape::Stroke {
                path,
                width,
                color: c,
            } => {
                let stroke = Stroke::new(*width as f32 * scale, color(*c));
                for (pts, closed) in flatten(path, scale) {
                    let shape = if closed {
                        PathShape::closed_line(pts, stroke)
                    } else {
                        PathShape::line(pts, stroke)
                    };
                    t.tessellate_path(&shape, &mut mesh);
                }
            }
            draw::Shape::Fill { path, color: c } => {
                let loops: Vec<Vec<Pos2>> =
                    flatten(path, scale).into_iter().map(|(p, _)| p).collect();
                if let [pts] = &loops[..]
                    && super::fill::is_convex(pts)
                {
                    // the page, crossing floors, arrow heads
                    let shape = PathShape::convex_polygon(pts.clone(), color(*c), Stroke::NONE);
                    t.tessellate_path(&shape, &mut mesh);
                } else {
                    // a tile maze's walls: many loops, concave, with holes; a hairline of the
                    // same colour along the outline smooths the edge
                    super::fill::fill_nonzero(&loops, color(*c), &mut mesh);
                    let edge = Stroke::new(1.0 / pixels_per_point, color(*c));
                    for pts in loops {
                        t.tessellate_path(&PathShape::closed_line(pts, edge), &mut mesh);
                    }
                }
            }
            draw::Shape::Text(_) => {}
        }
    }
    if let (Some(cells), false) = (
        crossings,
        d.items.iter().any(|i| i.layer == draw::Layer::Markers),
    ) {
        tint_cells(&mut t, &mut mesh, cells, tint, scale);
    }
    mesh
}

fn tint_cells(t: &mut Tessellator, mesh: &mut Mesh, cells: &[Vec<Pos>], tint: Color32, k: f32) {
    for cell in cells {
        let pts = cell
            .iter()
            .map(|p| pos2(p.x as f32 * k, p.y as f32 * k))
            .collect();
        t.tessellate_path(&PathShape::convex_polygon(pts, tint, Stroke::NONE), mesh);
    }
}

/// The colour of the "show mask" overlay.
pub const MASK_TINT: Color32 = Color32::from_rgba_premultiplied(0, 70, 20, 70);

/// The colour of one-cell necks in the mask overlay.
pub const NECK_TINT: Color32 = Color32::from_rgba_premultiplied(150, 0, 0, 150);

/// The colour of the crossing tint.
pub const CROSSING_TINT: Color32 = Color32::from_rgba_premultiplied(110, 60, 0, 110);

/// What the caller passes to [`show`].
pub struct Input<'a> {
    /// The pages (with an id that changes whenever they do), if there is a maze.
    pub preview: Option<(u64, &'a PagePreview)>,
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
    cache: &mut MeshCache,
) -> (egui::Response, Option<Placement>) {
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
    let margin = 16.0;
    let fit = ((rect.width() - 2.0 * margin) / page.x)
        .min((rect.height() - 2.0 * margin) / page.y)
        .max(0.01);
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
    let scale = fit * view.zoom;
    // whole pixels, so the cached mesh stays sharp when panning
    let origin = (rect.center() + view.pan - page * 0.5 * scale).round();
    let place = Placement { origin, scale };
    let page_rect = Rect::from_min_size(origin, page * scale);
    painter.rect_filled(
        page_rect.translate(vec2(3.0, 3.0)),
        0.0,
        Color32::from_black_alpha(70),
    );
    let key = MeshKey {
        id,
        key: input.answer_key,
        crossings: input.crossings && !preview.crossings.is_empty(),
        mask: input.mask,
        scale,
        pixels_per_point: ui.ctx().pixels_per_point(),
    };
    let mesh = cache.mesh_at(key, preview, origin, CROSSING_TINT);
    painter.add(egui::Shape::Mesh(mesh));
    for t in d.texts() {
        let size = t.size as f32 * scale;
        if size < 3.0 {
            continue; // too small to read: egui's font would only make a smudge
        }
        let at = place.to_screen(t.at);
        // the anchor is on the baseline; egui places the top of the text
        let top = pos2(at.x, at.y - 0.78 * size);
        let align = match t.anchor {
            Anchor::Start => Align2::LEFT_TOP,
            Anchor::Middle => Align2::CENTER_TOP,
            Anchor::End => Align2::RIGHT_TOP,
        };
        let font = if fonts_ready(ui.ctx()) {
            FontId::new(size, family(t.face, t.bold))
        } else {
            FontId::proportional(size)
        };
        painter.text(top, align, &t.text, font, color(t.color));
    }
    // the trim line when there is a bleed (the edge the printer cuts along)
    if d.trim.x > 0.0 {
        let trim = Rect::from_min_size(
            place.to_screen(Pos::new(d.trim.x, d.trim.y)),
            vec2(d.trim.w as f32, d.trim.h as f32) * scale,
        );
        painter.rect_stroke(
            trim,
            0.0,
            Stroke::new(1.0, Color32::from_rgb(0, 150, 220)),
            egui::StrokeKind::Middle,
        );
    }
    painter.rect_stroke(
        page_rect,
        0.0,
        Stroke::new(1.0, Color32::from_gray(120)),
        egui::StrokeKind::Outside,
    );
    (response, Some(place))
}

/// The egui font family of the page font `face`, regular or bold (see [`install_fonts`]).
fn family(face: Typeface, bold: bool) -> egui::FontFamily {
    let weight = if bold { "bold" } else { "regular" };
    egui::FontFamily::Name(format!("hedge-{}-{weight}", face.name()).into())
}

/// Where [`install_fonts`] records the pass it installed the fonts in.
fn fonts_id() -> egui::Id {
    egui::Id::unique("hedge-page-fonts")
}

/// Gives `ctx` the page fonts (the Liberation fonts the PNGs are drawn with, one family per
/// face and weight, egui's own fonts behind them for anything they lack), once. They take
/// effect from the next pass on; until then the preview sets its text in egui's font.
pub fn install_fonts(ctx: &egui::Context) {
    if ctx.data(|d| d.get_temp::<u64>(fonts_id())).is_some() {
        return;
    }
    let mut defs = egui::FontDefinitions::default();
    let fallback = defs
        .families
        .get(&egui::FontFamily::Proportional)
        .cloned()
        .unwrap_or_default();
    for face in Typeface::ALL {
        for bold in [false, true] {
            let egui::FontFamily::Name(name) = family(face, bold) else {
                continue;
            };
            defs.font_data.insert(
                name.to_string(),
                std::sync::Arc::new(egui::FontData::from_static(draw::font_bytes(face, bold))),
            );
            let mut list = vec![name.to_string()];
            list.extend(fallback.iter().cloned());
            defs.families.insert(family(face, bold), list);
        }
    }
    ctx.set_fonts(defs);
    let pass = ctx.cumulative_pass_nr();
    ctx.data_mut(|d| d.insert_temp(fonts_id(), pass));
}

/// Whether the page fonts are in effect in `ctx` (installed in an earlier pass).
fn fonts_ready(ctx: &egui::Context) -> bool {
    ctx.data(|d| d.get_temp::<u64>(fonts_id()))
        .is_some_and(|pass| ctx.cumulative_pass_nr() > pass)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_fonts_are_installed_once_and_then_used() {
        let ctx = egui::Context::default();
        let pass = |ctx: &egui::Context| {
            let mut ready = false;
            let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
                install_fonts(ui.ctx());
                ready = fonts_ready(ui.ctx());
                if ready {
                    // a family egui does not know would panic here
                    for face in Typeface::ALL {
                        for bold in [false, true] {
                            ui.label(egui::RichText::new("START Zoë").family(family(face, bold)));
                        }
                    }
                }
            });
            out.textures_delta.clear();
            ready
        };
        assert!(!pass(&ctx), "not in the pass that installs them");
        assert!(pass(&ctx));
        assert!(pass(&ctx));
    }
    use crate::design::Design;
    use crate::pipeline::generate;
    use crate::topology::TopologyKind;

    fn made(d: Design) -> (Generated, PagePreview) {
        let g = generate(&d, None).unwrap();
        let p = PagePreview::new(&g, &d.page).unwrap();
        (g, p)
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
        let (w, h) = d.page.page_mm();
        assert_eq!((p.pages.puzzle.width, p.pages.puzzle.height), (w, h));
        assert!(p.crossings.is_empty());
    }

    #[test]
    fn every_stroke_and_fill_is_tessellated_on_the_page() {
        for kind in TopologyKind::ALL {
            let (_, p) = made(Design {
                topology: kind,
                width: 6,
                height: 6,
                seed: Some(1),
                ..Design::default()
            });
            let d = &p.pages.key;
            let k = 2.0;
            let mesh = tessellate(d, None, CROSSING_TINT, k, 1.0);
            assert!(mesh.is_valid(), "{kind}");
            let page = Rect::from_min_size(Pos2::ZERO, vec2(d.width as f32, d.height as f32) * k);
            let bounds = mesh.calc_bounds();
            assert!(page.expand(2.0).contains_rect(bounds), "{kind}: {bounds:?}");
            // walls and solution both made triangles: more than the page's two
            let strokes = d
                .items
                .iter()
                .filter(|i| matches!(i.shape, draw::Shape::Stroke { .. }))
                .count();
            assert!(mesh.indices.len() / 3 > 2 * strokes, "{kind}");
        }
    }

    #[test]
    fn weave_crossings_are_tinted() {
        let (g, p) = made(Design {
            width: 12,
            height: 12,
            weave: 0.6,
            seed: Some(5),
            ..Design::default()
        });
        assert!(g.metrics.crossings > 0);
        assert_eq!(p.crossings.len(), g.metrics.crossings);
        let d = &p.pages.puzzle;
        let plain = tessellate(d, None, CROSSING_TINT, 2.0, 1.0);
        let tinted = tessellate(d, Some(&p.crossings), CROSSING_TINT, 2.0, 1.0);
        assert!(tinted.vertices.len() > plain.vertices.len());
        assert!(tinted.vertices.iter().any(|v| v.color == CROSSING_TINT));
    }

    #[test]
    fn curves_are_flattened_into_short_pieces() {
        let path = draw::Path {
            segs: vec![
                Seg::MoveTo(Pos::new(0.0, 0.0)),
                Seg::CubicTo(
                    Pos::new(0.0, 10.0),
                    Pos::new(10.0, 10.0),
                    Pos::new(10.0, 0.0),
                ),
                Seg::Close,
            ],
        };
        let f = flatten(&path, 4.0);
        assert_eq!(f.len(), 1);
        let (pts, closed) = &f[0];
        assert!(*closed);
        assert!(pts.len() > 8);
        assert_eq!(*pts.last().unwrap(), pos2(40.0, 0.0));
        assert!(pts.windows(2).all(|w| w[0].distance(w[1]) < 6.0));
    }

    #[test]
    fn the_mesh_is_kept_while_panning() {
        let (_, p) = made(Design {
            seed: Some(2),
            ..Design::default()
        });
        let mut cache = MeshCache::default();
        let key = MeshKey {
            id: 1,
            key: false,
            crossings: false,
            mask: false,
            scale: 2.0,
            pixels_per_point: 1.0,
        };
        let a = cache.mesh_at(key, &p, pos2(0.0, 0.0), CROSSING_TINT);
        let b = cache.mesh_at(key, &p, pos2(10.0, 5.0), CROSSING_TINT);
        assert_eq!(cache.builds, 1);
        assert_eq!(b.vertices[0].pos, a.vertices[0].pos + vec2(10.0, 5.0));
        cache.mesh_at(
            MeshKey { scale: 3.0, ..key },
            &p,
            pos2(0.0, 0.0),
            CROSSING_TINT,
        );
        assert_eq!(cache.builds, 2);
    }
}
