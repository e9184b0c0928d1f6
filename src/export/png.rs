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
    encode(&pix, dpi)
}

/// `dpi` in pixels per metre, as PNG's `pHYs` chunk records a resolution.
pub fn pixels_per_metre(dpi: u32) -> u32 {
    (f64::from(dpi) / 0.0254).round() as u32
}

/// Encodes the (opaque) pixmap as an 8-bit RGB PNG that says its resolution (`pHYs`), so it
/// opens at its printed size.
fn encode(pix: &Pixmap, dpi: u32) -> Result<Vec<u8>> {
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
        let ppm = pixels_per_metre(dpi);
        enc.set_pixel_dims(Some(::png::PixelDimensions {
            xppu: ppm,
            yppu: ppm,
            unit: ::png::Unit::Meter,
        }));
        let mut writer = enc
            .write_header()
            .map_err(|e| Error::option(format!("cannot encode the PNG: {e}")))?;
        writer
            .write_image_data(&rgb)
            .map_err(|e| Error::option(format!("cannot encode the PNG: {e}")))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_png_says_its_resolution() {
        let d = Drawing {
            width: 25.4,
            height: 50.8,
            trim: crate::draw::Area {
                x: 0.0,
                y: 0.0,
                w: 25.4,
                h: 50.8,
            },
            items: Vec::new(),
        };
        for dpi in [72, 300, 600] {
            let bytes = png(&d, dpi).unwrap();
            let reader = ::png::Decoder::new(std::io::Cursor::new(bytes))
                .read_info()
                .unwrap();
            let info = reader.info();
            assert_eq!((info.width, info.height), (dpi, 2 * dpi));
            let dims = info.pixel_dims.expect("a pHYs chunk");
            assert_eq!(dims.unit, ::png::Unit::Meter);
            assert_eq!(
                (dims.xppu, dims.yppu),
                (pixels_per_metre(dpi), pixels_per_metre(dpi))
            );
            // 300 dpi is 11811 pixels a metre: back to 300.0 dpi within rounding
            assert!((f64::from(dims.xppu) * 0.0254 - f64::from(dpi)).abs() < 0.02);
        }
    }
}
