//! The bundled font files (Liberation Sans, Serif and Mono, regular and bold, and DejaVu Sans),
//! shared by the page text ([`crate::draw`]) and the text of shapes ([`crate::shape::text`]).

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
