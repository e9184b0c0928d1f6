//! The cover's check ([`cover_check`]): the wrap's size, its fonts, the barcode area, the
//! safe areas, the spine's text, the art's contrast and resolution.

use super::*;

fn inside(a: &crate::draw::Area, b: &crate::draw::Area) -> bool {
    let e = 1e-6;
    a.x >= b.x - e && a.y >= b.y - e && a.x + a.w <= b.x + b.w + e && a.y + a.h <= b.y + b.h + e
}

/// The cover's check: its fonts embedded, its page the wrap's size (bleed + back + spine +
/// front + bleed), nothing but the ground in the barcode area, every text inside its panel's
/// safe area (the spine's text 0.0625 in from the folds), and text on the spine only from
/// [`SPINE_TEXT_MIN_PAGES`] pages and at [`SPINE_TEXT_MIN_PT`] or more
/// ([`Wrap::spine_holds_text`]); a spine too thin for text is said in the passed check.
pub(super) fn cover_check(c: &CoverSubject) -> Check {
    let bad = |text: String| Check {
        name: "cover",
        ok: false,
        text,
    };
    let (w, h) = c.wrap.size();
    let size = format!("{} x {}", inch(w), inch(h));
    if let Fonts::NotEmbedded(names) = pdf_fonts(c.pdf) {
        return bad(format!(
            "cover.pdf: fonts not embedded ({}): print services want every font embedded",
            names.join(", ")
        ));
    }
    let sizes = pdf_page_sizes(c.pdf);
    // the PDF writes points to 0.01 pt at single precision: 0.05 mm is far inside that
    let near = |(a, b): (f64, f64)| (a - w).abs() < 0.05 && (b - h).abs() < 0.05;
    if sizes.len() != 1
        || !sizes.iter().all(|&s| near(s))
        || !near((c.drawing.width, c.drawing.height))
    {
        let got: Vec<String> = sizes
            .iter()
            .map(|&(a, b)| format!("{} x {}", inch(a), inch(b)))
            .collect();
        return bad(format!(
            "cover.pdf is {}, the wrap for {} pages is one page of {size}",
            if got.is_empty() {
                "unreadable".into()
            } else {
                got.join(", ")
            },
            c.pages
        ));
    }
    let barcode = c.wrap.barcode();
    for item in c.drawing.printed().filter(|i| i.layer != Layer::Page) {
        let mut b = None;
        match &item.shape {
            Shape::Stroke { path, width, .. } => path_box(path, width / 2.0, &mut b),
            Shape::Fill { path, .. } => path_box(path, 0.0, &mut b),
            Shape::Text(t) => {
                let a = t.bounds();
                grow(&mut b, a.x, a.y, a.x + a.w, a.y + a.h);
            }
            Shape::Image { area: a, .. } => grow(&mut b, a.x, a.y, a.x + a.w, a.y + a.h),
            Shape::Tint { .. } => {}
        }
        if let Some([x0, y0, x1, y1]) = b
            && x0 < barcode.x + barcode.w
            && barcode.x < x1
            && y0 < barcode.y + barcode.h
            && barcode.y < y1
        {
            return bad(
                "something is drawn in the back cover's barcode area (2 x 1.2 in, lower right): \
                 keep it clear"
                    .into(),
            );
        }
    }
    let panels = [
        ("front", Wrap::safe(&c.wrap.front())),
        ("back", Wrap::safe(&c.wrap.back())),
    ];
    let mut spine_texts = 0;
    for t in c.drawing.texts().filter(|t| !t.text.trim().is_empty()) {
        let b = t.bounds();
        if t.rotated.is_turned() {
            spine_texts += 1;
            if let Some(problem) = spine_text_problem(c, t) {
                return bad(problem);
            }
        } else if !panels.iter().any(|(_, p)| inside(&b, p)) {
            return bad(format!(
                "\"{}\" is outside the cover's safe area (0.25 in inside each panel's trim)",
                t.text
            ));
        }
    }
    if let Some(problem) = cover_art_problem(c, &panels).or_else(|| low_resolution(c, &panels)) {
        return bad(problem);
    }
    let spine = if spine_texts > 0 {
        " (titled)".to_string()
    } else if c.wrap.spine_holds_text(c.pages) {
        String::new()
    } else {
        format!(" (no text: under {SPINE_TEXT_MIN_PT} pt with 0.0625 in at each fold)")
    };
    ok(
        "cover",
        format!(
            "{size} with a {} spine{spine}; fonts embedded, barcode area clear, text in the safe \
             areas",
            inch(c.wrap.spine),
        ),
    )
}

/// The least resolution a raster picture prints at on a cover, pixels an inch (KDP's cover
/// guidelines ask for 300 dpi).
pub const MIN_ART_DPI: f64 = 300.0;

/// A raster picture on cover `c` (its own artwork or logo given as PNG or JPEG) printed at
/// under [`MIN_ART_DPI`], named by the panel it is on, with its resolution and size.
fn low_resolution(c: &CoverSubject, panels: &[(&str, crate::draw::Area); 2]) -> Option<String> {
    c.drawing.printed().find_map(|i| {
        let Shape::Image { area, image } = &i.shape else {
            return None;
        };
        let dpi = f64::from(image.width) / (area.w / MM_PER_INCH).max(1e-9);
        // the box is the picture's aspect to a rounding: half a dot an inch is no blur
        (dpi < MIN_ART_DPI - 0.5).then(|| {
            let centre = (area.x + area.w / 2.0, area.y + area.h / 2.0);
            let panel = panels
                .iter()
                .find(|(_, p)| centre.0 >= p.x && centre.0 <= p.x + p.w)
                .map_or("cover", |(name, _)| name);
            let what = if panel.contains("front") {
                "front picture"
            } else {
                "logo"
            };
            format!(
                "the cover's {what} prints at {dpi:.0} dpi ({} x {} pixels over {} x {}); print \
                 needs {MIN_ART_DPI:.0} dpi: give a larger picture or an SVG",
                image.width,
                image.height,
                inch(area.w),
                inch(area.h)
            )
        })
    })
}

/// What is wrong with the art of cover `c` (its own artwork, logo and badge, and the cards'
/// mazes: everything but the ground and the cards themselves) or with its texts' colours: a
/// part outside every panel's safe area (`panels`), or a text (on [`Layer::Text`]) under
/// [`MIN_CONTRAST`] to 1 against the ground.
fn cover_art_problem(c: &CoverSubject, panels: &[(&str, crate::draw::Area); 2]) -> Option<String> {
    let ground = c
        .drawing
        .items
        .iter()
        .find_map(|i| match (&i.layer, &i.shape) {
            (Layer::Page, Shape::Fill { color, .. }) => Some(*color),
            _ => None,
        })?;
    for item in c.drawing.printed() {
        let mut b = None;
        match (&item.layer, &item.shape) {
            (Layer::Page | Layer::Walls, _) | (_, Shape::Text(_) | Shape::Tint { .. }) => {}
            (_, Shape::Stroke { path, width, .. }) => curve_box(path, width / 2.0, &mut b),
            (_, Shape::Fill { path, .. }) => curve_box(path, 0.0, &mut b),
            (_, Shape::Image { area: a, .. }) => grow(&mut b, a.x, a.y, a.x + a.w, a.y + a.h),
        }
        if let Some([x0, y0, x1, y1]) = b {
            let a = crate::draw::Area {
                x: x0,
                y: y0,
                w: x1 - x0,
                h: y1 - y0,
            };
            // a picture's points are single precision: 0.01 mm is far inside a printer's care
            let grown = |p: &crate::draw::Area| crate::draw::Area {
                x: p.x - 0.01,
                y: p.y - 0.01,
                w: p.w + 0.02,
                h: p.h + 0.02,
            };
            if !panels.iter().any(|(_, p)| inside(&a, &grown(p))) {
                return Some(format!(
                    "the cover's {} reaches outside the safe area (0.25 in inside each panel's \
                     trim) at {:.2} x {:.2} in",
                    if item.layer == Layer::Markers {
                        "badge"
                    } else {
                        "artwork"
                    },
                    x0 / MM_PER_INCH,
                    y0 / MM_PER_INCH
                ));
            }
        }
    }
    c.drawing
        .items
        .iter()
        .filter_map(|i| match (&i.layer, &i.shape) {
            (Layer::Text, Shape::Text(t)) => Some(t),
            _ => None,
        })
        .find(|t| contrast(t.color, ground) < MIN_CONTRAST)
        .map(|t| {
            format!(
                "\"{}\" ({}) on the cover's ground ({}) has a contrast of {:.1} to 1; text needs at \
                 least {MIN_CONTRAST} to 1 (WCAG)",
                t.text,
                hex(t.color),
                hex(ground),
                contrast(t.color, ground)
            )
        })
}

/// What is wrong with `t`, a text on the spine of cover `c`: a book under
/// [`SPINE_TEXT_MIN_PAGES`] pages, letters under [`SPINE_TEXT_MIN_PT`], or the text outside the
/// spine less 0.0625 in at its folds.
fn spine_text_problem(c: &CoverSubject, t: &crate::draw::Text) -> Option<String> {
    if c.pages < SPINE_TEXT_MIN_PAGES {
        return Some(format!(
            "text on the spine of a {}-page book: KDP prints spine text from \
             {SPINE_TEXT_MIN_PAGES} pages",
            c.pages
        ));
    }
    let pt = t.size * 72.0 / MM_PER_INCH;
    if pt + 1e-6 < SPINE_TEXT_MIN_PT {
        return Some(format!(
            "the spine's \"{}\" is {pt:.1} pt, under {SPINE_TEXT_MIN_PT} pt: leave a spine of {} \
             without text",
            t.text,
            inch(c.wrap.spine)
        ));
    }
    (!inside(&t.bounds(), &c.wrap.spine_safe())).then(|| {
        format!(
            "the spine's \"{}\" is outside the spine less 0.0625 in at its folds",
            t.text
        )
    })
}
