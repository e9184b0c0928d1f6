//! The bundled font files (Liberation Sans, Serif and Mono, regular and bold, and DejaVu Sans),
//! shared by the page text ([`crate::draw`]) and the text of shapes ([`crate::shape::text`]),
//! and the font database SVG text is drawn with ([`fontdb`]).

use std::sync::{Arc, OnceLock};

use resvg::usvg;

/// The bundled font files: PostScript name and bytes, in the order `draw::font` numbers them.
pub(crate) const FILES: [(&str, &[u8]); 8] = [
    (
        "LiberationSans",
        include_bytes!("../assets/fonts/LiberationSans-Regular.ttf"),
    ),
    (
        "LiberationSans-Bold",
        include_bytes!("../assets/fonts/LiberationSans-Bold.ttf"),
    ),
    (
        "LiberationSerif",
        include_bytes!("../assets/fonts/LiberationSerif-Regular.ttf"),
    ),
    (
        "LiberationSerif-Bold",
        include_bytes!("../assets/fonts/LiberationSerif-Bold.ttf"),
    ),
    (
        "LiberationMono",
        include_bytes!("../assets/fonts/LiberationMono-Regular.ttf"),
    ),
    (
        "LiberationMono-Bold",
        include_bytes!("../assets/fonts/LiberationMono-Bold.ttf"),
    ),
    (
        "DejaVuSans",
        include_bytes!("../assets/fonts/DejaVuSans.ttf"),
    ),
    (
        "DejaVuSans-Bold",
        include_bytes!("../assets/fonts/DejaVuSans-Bold.ttf"),
    ),
];

/// The bundled Comic Neue Bold.
pub(crate) const COMIC_NEUE_BOLD: &[u8] = include_bytes!("../assets/fonts/ComicNeue-Bold.otf");

/// The fonts SVG text (and text shapes) are drawn with: the bundled fonts and nothing else.
/// Generic families: serif is Liberation Serif (also the fallback for a family not found, as
/// in browsers), sans-serif Liberation Sans, monospace Liberation Mono, cursive and fantasy
/// Comic Neue.
pub fn fontdb() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        for (_, bytes) in FILES {
            db.load_font_source(usvg::fontdb::Source::Binary(Arc::new(bytes)));
        }
        db.load_font_source(usvg::fontdb::Source::Binary(Arc::new(COMIC_NEUE_BOLD)));
        db.set_serif_family("Liberation Serif");
        db.set_sans_serif_family("Liberation Sans");
        db.set_monospace_family("Liberation Mono");
        db.set_cursive_family("Comic Neue");
        db.set_fantasy_family("Comic Neue");
        Arc::new(db)
    })
    .clone()
}
