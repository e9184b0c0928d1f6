//! PNG export: a page rasterised by [`super::raster`] (the rasteriser the editor's preview
//! uses too) at a chosen resolution, on white paper, as an 8-bit RGB PNG.

use tiny_skia::Pixmap;

use super::raster::{Region, page_pixels, rasterise};
use crate::draw::Drawing;
use crate::error::{Error, Result};

pub use super::raster::MAX_PIXELS;

/// The pixel size of `d` at `dpi`.
pub fn pixel_size(d: &Drawing, dpi: u32) -> (u32, u32) {
    page_pixels(d, f64::from(dpi) / 25.4)
}

/// Rasterises the printed items of `d` at `dpi` (30 to 1200) into PNG bytes.
pub fn png(d: &Drawing, dpi: u32) -> Result<Vec<u8>> {
    super::check_dpi(dpi)?;
    let pix = rasterise(d.printed(), &Region::page(d, f64::from(dpi) / 25.4))?;
    encode(&pix)
}

/// Encodes the (opaque) pixmap as an 8-bit RGB PNG.
fn encode(pix: &Pixmap) -> Result<Vec<u8>> {
    let rgb: Vec<u8> = pix
        .data()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    let mut out = Vec::new();
    {
        let mut enc = ::png::Encoder::new(&mut out, pix.width(), pix.height());
        enc.set_color(::png::ColorType::Rgb);
        enc.set_depth(::png::BitDepth::Eight);
        enc.set_compression(::png::Compression::Fast);
        let mut writer = enc
            .write_header()
            .map_err(|e| Error::option(format!("cannot encode the PNG: {e}")))?;
        writer
            .write_image_data(&rgb)
            .map_err(|e| Error::option(format!("cannot encode the PNG: {e}")))?;
    }
    Ok(out)
}
