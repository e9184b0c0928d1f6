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
    check(d, dpi)?;
    let mut out = Vec::new();
    write_png(d, dpi, &mut out).map_err(|e| Error::option(e.to_string()))?;
    Ok(out)
}

/// Rasterises the printed items of `d` at `dpi` and writes the PNG to `out`; [`check`] says
/// beforehand whether the page can be drawn at that resolution (past it, this fails with the
/// same line). The page's pixels are the only raster held: they become the PNG's RGB rows in
/// place, and the compressed image goes to `out`.
pub fn write_png(d: &Drawing, dpi: u32, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let refused = |e: Error| std::io::Error::other(e.message);
    check(d, dpi).map_err(refused)?;
    let pix = rasterise(d.printed(), &Region::page(d, f64::from(dpi) / 25.4)).map_err(refused)?;
    encode(pix, dpi, out)
}

/// Checks `d` can be drawn at `dpi`: the resolution is 30 to 1200 dpi and the page has at
/// most [`MAX_PIXELS`] pixels at it (see [`check_pixels`]).
pub fn check(d: &Drawing, dpi: u32) -> Result<()> {
    check_pixels(pixel_size(d, dpi), dpi)
}

/// Refuses a raster of `size` pixels (at `dpi`) over [`MAX_PIXELS`], saying how to fit.
pub fn check_pixels((w, h): (u32, u32), dpi: u32) -> Result<()> {
    super::check_dpi(dpi)?;
    let pixels = u64::from(w) * u64::from(h);
    if pixels > MAX_PIXELS {
        // the largest resolution that fits: pixels grow with the square of the resolution
        let fits = (f64::from(dpi) * (MAX_PIXELS as f64 / pixels as f64).sqrt()).floor();
        return Err(Error::option(format!(
            "a {w} x {h} pixel PNG ({} megapixels) is over the {} megapixel limit; use {} dpi \
             or less, or a PDF or SVG",
            pixels / 1_000_000,
            MAX_PIXELS / 1_000_000,
            fits.max(30.0)
        )));
    }
    Ok(())
}

/// `dpi` in pixels per metre, as PNG's `pHYs` chunk records a resolution.
pub fn pixels_per_metre(dpi: u32) -> u32 {
    (f64::from(dpi) / 0.0254).round() as u32
}

/// Encodes the (opaque) pixmap as an 8-bit RGB PNG that says its resolution (`pHYs`), so it
/// opens at its printed size. The pixels are packed from RGBA to RGB in place (the paper is
/// opaque, so premultiplied RGBA is the colour itself).
fn encode(pix: Pixmap, dpi: u32, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let (width, height) = (pix.width(), pix.height());
    let mut rgb = pix.take();
    for i in 1..rgb.len() / 4 {
        rgb.copy_within(4 * i..4 * i + 3, 3 * i);
    }
    rgb.truncate(rgb.len() / 4 * 3);
    let mut enc = ::png::Encoder::new(out, width, height);
    enc.set_color(::png::ColorType::Rgb);
    enc.set_depth(::png::BitDepth::Eight);
    enc.set_compression(::png::Compression::Fast);
    let ppm = pixels_per_metre(dpi);
    enc.set_pixel_dims(Some(::png::PixelDimensions {
        xppu: ppm,
        yppu: ppm,
        unit: ::png::Unit::Meter,
    }));
    let failed = |e: ::png::EncodingError| match e {
        ::png::EncodingError::IoError(e) => e,
        e => std::io::Error::other(format!("cannot encode the PNG: {e}")),
    };
    let mut writer = enc.write_header().map_err(failed)?;
    writer.write_image_data(&rgb).map_err(failed)?;
    writer.finish().map_err(failed)
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
