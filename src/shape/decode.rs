//! Decoding pictures from bytes, with bounded memory.
//!
//! The format is recognised by content (magic bytes, or an `<svg` element), never by a file
//! name. Every picture is downscaled on the way in to at most [`MAX_PICTURE_SIDE`] pixels on its
//! longer side with a box filter, so the rest of the stage works on a few megabytes at most:
//!
//! - PNG (not interlaced) is streamed row by row and downscaled as it arrives, so an 8000 x 8000
//!   file needs one row and one output picture in memory, not 256 MB of pixels;
//! - interlaced PNG is decoded whole by the same decoder, as 8-bit samples, up to
//!   [`MAX_BUFFERED_PIXELS`] (at most 8192 x 8192 x 4 bytes, 256 MB);
//! - JPEG, GIF, BMP and WebP go through `image` with limits, up to [`MAX_BUFFERED_PIXELS`]
//!   (their decoders produce the whole picture first: an 8000 x 8000 JPEG peaks at about
//!   210 MB);
//! - SVG is parsed by usvg (external files are never loaded) and rasterised by resvg straight at
//!   the bounded size, within the budget of [`super::svg`] (filters ignored, elements, points,
//!   pixels painted and layers counted before drawing).
//!
//! Header dimensions are checked before any pixel is decoded (decompression bombs stop there).

use std::io::Cursor;
use std::sync::Arc;

use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader};
use resvg::tiny_skia;

use crate::error::{Error, Result};
use crate::shape::vector::VectorShape;

/// The longest side of a decoded picture, in pixels; larger pictures are downscaled.
pub const MAX_PICTURE_SIDE: u32 = 2048;

/// The longest side accepted in a file's header, in pixels.
pub const MAX_SOURCE_SIDE: u32 = 65_535;

/// The most pixels a streamed (non-interlaced) PNG may have.
pub const MAX_STREAMED_PIXELS: u64 = 400_000_000;

/// The most bytes of pixel data a streamed PNG may hold once inflated (it is all inflated, even
/// when most of it is skipped: about 4 s here for 512 MB).
pub const MAX_STREAMED_BYTES: u64 = 512 * 1024 * 1024;

/// The most pixels of a picture decoded whole (JPEG, GIF, BMP, WebP, interlaced PNG): 8192 x
/// 8192, about 67 megapixels.
pub const MAX_BUFFERED_PIXELS: u64 = 8192 * 8192;

/// What the decoders may allocate at once (an 8192 x 8192 RGBA picture plus slack).
const MAX_DECODER_ALLOC: u64 = 300 * 1024 * 1024;

/// The picture formats Hedge reads, each named as usual ("PNG", "JPEG", ...).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::Display, strum::IntoStaticStr,
)]
pub enum Format {
    /// Portable Network Graphics.
    #[strum(serialize = "PNG")]
    Png,
    /// JPEG.
    #[strum(serialize = "JPEG")]
    Jpeg,
    /// GIF (the first frame).
    #[strum(serialize = "GIF")]
    Gif,
    /// Windows bitmap.
    #[strum(serialize = "BMP")]
    Bmp,
    /// WebP.
    #[strum(serialize = "WebP")]
    WebP,
    /// Scalable Vector Graphics.
    #[strum(serialize = "SVG")]
    Svg,
}

impl Format {
    /// All formats, in the order messages list them.
    pub const ALL: [Format; 6] = [
        Format::Png,
        Format::Jpeg,
        Format::Gif,
        Format::Bmp,
        Format::WebP,
        Format::Svg,
    ];

    /// The usual name of the format ("PNG", "JPEG", ...).
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The format a file extension (without the dot, any case) usually means.
    pub fn from_extension(ext: &str) -> Option<Format> {
        match ext.to_ascii_lowercase().as_str() {
            "png" | "apng" => Some(Format::Png),
            "jpg" | "jpeg" | "jpe" | "jfif" => Some(Format::Jpeg),
            "gif" => Some(Format::Gif),
            "bmp" | "dib" => Some(Format::Bmp),
            "webp" => Some(Format::WebP),
            "svg" => Some(Format::Svg),
            _ => None,
        }
    }

    /// The format of `bytes`, from their content.
    pub fn detect(bytes: &[u8]) -> Result<Format> {
        if bytes.is_empty() {
            return Err(Error::input("the file is empty"));
        }
        if looks_like_svg(bytes) {
            return Ok(Format::Svg);
        }
        if bytes.starts_with(&[0x1f, 0x8b]) {
            return Err(Error::input(
                "compressed files (.gz, .svgz) are not read; decompress it first",
            ));
        }
        match image::guess_format(bytes) {
            Ok(ImageFormat::Png) => Ok(Format::Png),
            Ok(ImageFormat::Jpeg) => Ok(Format::Jpeg),
            Ok(ImageFormat::Gif) => Ok(Format::Gif),
            Ok(ImageFormat::Bmp) => Ok(Format::Bmp),
            Ok(ImageFormat::WebP) => Ok(Format::WebP),
            Ok(other) => Err(Error::input(format!(
                "the picture is in {} format, which Hedge does not read (use {})",
                format_name(other),
                supported_list()
            ))),
            Err(_) => Err(Error::input(format!(
                "not a picture Hedge can read (use {})",
                supported_list()
            ))),
        }
    }
}

/// "PNG, JPEG, GIF, BMP, WebP or SVG".
fn supported_list() -> String {
    let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
    format!(
        "{} or {}",
        names[..names.len() - 1].join(", "),
        names[names.len() - 1]
    )
}

fn format_name(f: ImageFormat) -> String {
    f.extensions_str()
        .first()
        .map_or_else(|| format!("{f:?}"), |e| e.to_ascii_uppercase())
}

/// Whether `bytes` start like an SVG document: optional BOM, white space, XML declaration,
/// comments or a doctype, then an `<svg` element anywhere in the first
/// [`super::svg::MAX_SVG_BYTES`] (a long comment or doctype may come first: one after 4 KB was
/// "not a picture").
fn looks_like_svg(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(super::svg::MAX_SVG_BYTES)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let start = head.iter().position(|b| !b.is_ascii_whitespace());
    let Some(start) = start else { return false };
    if head[start] != b'<' {
        return false;
    }
    head.windows(4).any(|w| w == b"<svg")
}

/// A decoded picture: straight (not premultiplied) 8-bit RGBA, row by row, at most
/// [`MAX_PICTURE_SIDE`] pixels on its longer side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
    /// An SVG's outline from its vector paths, in these pixels ([`super::vector`]).
    vector: Option<Arc<VectorShape>>,
    /// Whether the picture draws text (an SVG with `<text>` the bundled fonts set).
    text: bool,
}

impl Picture {
    /// A picture from RGBA pixels, row by row; downscaled when larger than
    /// [`MAX_PICTURE_SIDE`].
    pub fn from_rgba(width: u32, height: u32, rgba: &[u8]) -> Result<Picture> {
        check_source_size(width, height, MAX_STREAMED_PIXELS)?;
        let row = width as usize * 4;
        if rgba.len() != row * height as usize {
            return Err(Error::input(format!(
                "{} bytes of pixels for a {width} x {height} RGBA picture",
                rgba.len()
            )));
        }
        let mut down = Downscaler::new(width, height);
        for line in rgba.chunks_exact(row) {
            down.push_row(line);
        }
        down.finish()
    }

    /// Decodes `bytes`, whatever their format (see [`Format::detect`]).
    pub fn decode(bytes: &[u8]) -> Result<Picture> {
        Self::decode_as(bytes, Format::detect(bytes)?)
    }

    /// Decodes `bytes` as `format`.
    pub fn decode_as(bytes: &[u8], format: Format) -> Result<Picture> {
        match format {
            Format::Png => decode_png(bytes),
            Format::Svg => decode_svg(bytes),
            other => decode_buffered(bytes, other),
        }
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixels, RGBA row by row.
    pub fn rgba(&self) -> &[u8] {
        &self.rgba
    }

    /// An SVG picture's outline from its vector paths, in these pixels, when it has one that
    /// says all its drawing does ([`super::vector`]).
    pub fn vector(&self) -> Option<&Arc<VectorShape>> {
        self.vector.as_ref()
    }

    /// Whether the picture draws text: an SVG with text in it that the bundled fonts set
    /// ([`super::svg::draws_text`]). Its letters are separate parts, which the design's islands
    /// policy joins unless it says otherwise ([`crate::design::Design::islands_policy`]).
    pub fn has_text(&self) -> bool {
        self.text
    }

    /// The picture, marked as drawing text (a text shape's, drawn as one path).
    pub(crate) fn drawing_text(mut self) -> Picture {
        self.text = true;
        self
    }

    /// The pixel at (`x`, `y`) as `[r, g, b, a]` (transparent black outside the picture).
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        if x >= self.width || y >= self.height {
            return [0; 4];
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        [
            self.rgba[i],
            self.rgba[i + 1],
            self.rgba[i + 2],
            self.rgba[i + 3],
        ]
    }
}

fn check_source_size(width: u32, height: u32, max_pixels: u64) -> Result<()> {
    if width == 0 || height == 0 {
        return Err(Error::input(format!(
            "the picture is {width} x {height} pixels: it has no pixels"
        )));
    }
    let pixels = u64::from(width) * u64::from(height);
    if width > MAX_SOURCE_SIDE || height > MAX_SOURCE_SIDE || pixels > max_pixels {
        return Err(Error::input(format!(
            "the picture is too large ({width} x {height} pixels; the limit is {} megapixels \
             and {MAX_SOURCE_SIDE} pixels a side)",
            max_pixels / 1_000_000
        )));
    }
    Ok(())
}

/// The size a `width` x `height` picture is reduced to.
fn target_size(width: u32, height: u32) -> (u32, u32) {
    let long = width.max(height);
    if long <= MAX_PICTURE_SIDE {
        return (width, height);
    }
    let scale = |v: u32| -> u32 {
        let s =
            (u64::from(v) * u64::from(MAX_PICTURE_SIDE) + u64::from(long) / 2) / u64::from(long);
        (s as u32).max(1)
    };
    (scale(width), scale(height))
}

/// The source rows (or columns) of one output row (or column), at most [`SAMPLES`] of them
/// spread evenly: `out` of `n_out` when `n_src` are reduced to `n_out`.
fn samples(out: u32, n_out: u32, n_src: u32) -> impl Iterator<Item = u32> {
    let first = |o: u32| (u64::from(o) * u64::from(n_src)).div_ceil(u64::from(n_out)) as u32;
    let (start, end) = (first(out), first(out + 1).min(n_src));
    let len = end.saturating_sub(start);
    let take = len.min(SAMPLES);
    (0..take).map(move |i| start + (2 * i + 1) * len / (2 * take))
}

/// How many source rows and columns are averaged for one output pixel, at most: a picture
/// reduced by more than this is sampled on an even grid rather than read whole, so a huge
/// picture costs its decoding and a bounded amount of filtering (each output pixel averages
/// up to `SAMPLES` x `SAMPLES` source pixels).
const SAMPLES: u32 = 2;

/// Box-filter downscaling of rows arriving top to bottom; keeps one output row of sums.
///
/// Colours are averaged weighted by alpha (as premultiplied colour would be), so the colour
/// hidden under transparent pixels never bleeds into the result. Up to [`SAMPLES`] evenly
/// spread rows and columns of each output pixel's box are read (all of them when the picture is
/// reduced by at most that much).
struct Downscaler {
    src_w: u32,
    src_h: u32,
    out_w: u32,
    out_h: u32,
    /// The source columns read, with the output column each goes to.
    cols: Vec<(u32, u32)>,
    /// Whether each source row is read.
    rows: Vec<bool>,
    /// Per output pixel of the current output row: sum of a, r*a, g*a, b*a.
    sums: Vec<u64>,
    counts: Vec<u32>,
    out: Vec<u8>,
    row: u32,
    out_row: u32,
}

impl Downscaler {
    fn new(src_w: u32, src_h: u32) -> Self {
        let (out_w, out_h) = target_size(src_w, src_h);
        let cols = (0..out_w)
            .flat_map(|ox| samples(ox, out_w, src_w).map(move |x| (x, ox)))
            .collect();
        let mut rows = vec![false; src_h as usize];
        for oy in 0..out_h {
            for y in samples(oy, out_h, src_h) {
                rows[y as usize] = true;
            }
        }
        Downscaler {
            src_w,
            src_h,
            out_w,
            out_h,
            cols,
            rows,
            sums: vec![0; out_w as usize * 4],
            counts: vec![0; out_w as usize],
            out: Vec::with_capacity(out_w as usize * out_h as usize * 4),
            row: 0,
            out_row: 0,
        }
    }

    fn identity(&self) -> bool {
        self.out_w == self.src_w && self.out_h == self.src_h
    }

    /// Adds the next source row (RGBA, `src_w` pixels).
    fn push_row(&mut self, rgba: &[u8]) {
        self.push(rgba, 4);
    }

    /// Adds the next source row: `src_w` pixels of `channels` 8-bit samples each (1 grey,
    /// 2 grey and alpha, 3 RGB, 4 RGBA).
    fn push(&mut self, data: &[u8], channels: usize) {
        if self.row >= self.src_h {
            return;
        }
        self.row += 1;
        let rgba = |px: &[u8]| match channels {
            1 => [px[0], px[0], px[0], 255],
            2 => [px[0], px[0], px[0], px[1]],
            3 => [px[0], px[1], px[2], 255],
            _ => [px[0], px[1], px[2], px[3]],
        };
        if self.identity() {
            if channels == 4 {
                self.out.extend_from_slice(&data[..self.src_w as usize * 4]);
            } else {
                for px in data.chunks_exact(channels).take(self.src_w as usize) {
                    self.out.extend_from_slice(&rgba(px));
                }
            }
            return;
        }
        let oy = (u64::from(self.row - 1) * u64::from(self.out_h) / u64::from(self.src_h)) as u32;
        if oy != self.out_row {
            self.flush();
            self.out_row = oy;
        }
        if !self.rows[self.row as usize - 1] {
            return;
        }
        for &(x, ox) in &self.cols {
            let at = x as usize * channels;
            let p = rgba(&data[at..at + channels]);
            let a = u64::from(p[3]);
            let s = &mut self.sums[ox as usize * 4..ox as usize * 4 + 4];
            s[0] += a;
            s[1] += u64::from(p[0]) * a;
            s[2] += u64::from(p[1]) * a;
            s[3] += u64::from(p[2]) * a;
            self.counts[ox as usize] += 1;
        }
    }

    /// Writes the current output row and clears the sums.
    fn flush(&mut self) {
        for (s, n) in self.sums.chunks_exact_mut(4).zip(self.counts.iter_mut()) {
            let count = u64::from((*n).max(1));
            let a = s[0];
            let px = match (s[1] + a / 2).checked_div(a) {
                None => [0, 0, 0, 0],
                Some(r) => [
                    r as u8,
                    ((s[2] + a / 2) / a) as u8,
                    ((s[3] + a / 2) / a) as u8,
                    ((a + count / 2) / count) as u8,
                ],
            };
            self.out.extend_from_slice(&px);
            s.fill(0);
            *n = 0;
        }
    }

    fn finish(mut self) -> Result<Picture> {
        if self.row < self.src_h {
            return Err(Error::input(format!(
                "the picture is truncated: {} of {} rows",
                self.row, self.src_h
            )));
        }
        if !self.identity() {
            self.flush();
        }
        debug_assert_eq!(
            self.out.len(),
            self.out_w as usize * self.out_h as usize * 4
        );
        Ok(Picture {
            width: self.out_w,
            height: self.out_h,
            rgba: self.out,
            vector: None,
            text: false,
        })
    }
}

/// One line of a decoder's message (some span several lines).
fn one_line(e: impl std::fmt::Display) -> String {
    let text = e.to_string();
    let line = text
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .trim_end_matches('.');
    without_chunk_debug(line)
}

/// `line` with the png crate's debug print of a chunk type (`ChunkType { type: IHDR, critical:
/// true, ... }`) replaced by the chunk's name (`IHDR`).
fn without_chunk_debug(line: &str) -> String {
    const OPEN: &str = "ChunkType { type: ";
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find(OPEN) {
        let after = &rest[i + OPEN.len()..];
        let Some(end) = after.find('}') else { break };
        let name = after[..end].split(',').next().unwrap_or("").trim();
        out.push_str(&rest[..i]);
        out.push_str(name);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

fn png_error(e: png::DecodingError) -> Error {
    match e {
        png::DecodingError::IoError(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            Error::input("the PNG image is truncated")
        }
        png::DecodingError::LimitsExceeded => {
            Error::input("the PNG image needs more memory than allowed to decode")
        }
        e => Error::input(format!("the PNG image is corrupt ({})", one_line(e))),
    }
}

/// The error for a PNG whose decoded size does not fit in memory's address space.
fn too_big_png() -> Error {
    Error::input("the picture is too large to decode")
}

/// Streams a PNG row by row through the downscaler (interlaced files are decoded whole, as
/// 8-bit samples).
fn decode_png(bytes: &[u8]) -> Result<Picture> {
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    decoder.set_ignore_text_chunk(true);
    let mut reader = decoder.read_info().map_err(png_error)?;
    let (width, height) = reader.info().size();
    check_source_size(width, height, MAX_STREAMED_PIXELS)?;
    let raw = reader.info().raw_bytes() as u64;
    if raw > MAX_STREAMED_BYTES {
        return Err(Error::input(format!(
            "the picture is too large ({width} x {height} pixels, {} MB of pixel data; the limit \
             is {} MB)",
            // rounded up: a picture over the limit never reads as the limit
            raw.div_ceil(1 << 20),
            MAX_STREAMED_BYTES >> 20
        )));
    }
    let (color, _) = reader.output_color_type();
    let channels = color.samples();
    let mut down = Downscaler::new(width, height);
    if reader.info().interlaced {
        // the passes need the whole picture, but as 8-bit samples (a 16-bit file's half): one
        // buffer of at most 8192 x 8192 x 4 bytes, fed to the downscaler row by row
        check_source_size(width, height, MAX_BUFFERED_PIXELS)?;
        let mut buf = vec![0; reader.output_buffer_size().ok_or_else(too_big_png)?];
        let frame = reader.next_frame(&mut buf).map_err(png_error)?;
        let line = width as usize * channels;
        if frame.line_size < line || buf.len() < frame.line_size * height as usize {
            return Err(Error::input("the PNG image is corrupt (short row)"));
        }
        for row in buf.chunks_exact(frame.line_size).take(height as usize) {
            down.push(&row[..line], channels);
        }
        return down.finish();
    }
    while let Some(row) = reader.next_row().map_err(png_error)? {
        let data = row.data();
        if data.len() < width as usize * channels {
            return Err(Error::input("the PNG image is corrupt (short row)"));
        }
        down.push(data, channels);
    }
    down.finish()
}

fn image_error(format: Format, e: image::ImageError) -> Error {
    use image::ImageError as E;
    match e {
        E::Limits(_) => Error::input(format!(
            "the {format} image needs more memory than allowed to decode"
        )),
        E::IoError(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            Error::input(format!("the {format} image is truncated"))
        }
        e => Error::input(format!("the {format} image is corrupt ({})", one_line(e))),
    }
}

/// Decodes the raster picture `bytes` (in `format`, not SVG) whole through `image`, within
/// the decoders' limits and at most `max_pixels`: the image and the orientation its camera
/// recorded (not yet applied).
fn decode_whole(
    bytes: &[u8],
    format: Format,
    max_pixels: u64,
) -> Result<(DynamicImage, image::metadata::Orientation)> {
    let fmt = match format {
        Format::Png => ImageFormat::Png,
        Format::Jpeg => ImageFormat::Jpeg,
        Format::Gif => ImageFormat::Gif,
        Format::Bmp => ImageFormat::Bmp,
        Format::WebP => ImageFormat::WebP,
        Format::Svg => return Err(Error::input("an SVG file is not a raster picture")),
    };
    let mut reader = ImageReader::with_format(Cursor::new(bytes), fmt);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SOURCE_SIDE);
    limits.max_image_height = Some(MAX_SOURCE_SIDE);
    limits.max_alloc = Some(MAX_DECODER_ALLOC);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(|e| image_error(format, e))?;
    let (width, height) = decoder.dimensions();
    check_source_size(width, height, max_pixels)?;
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let image = DynamicImage::from_decoder(decoder).map_err(|e| image_error(format, e))?;
    Ok((image, orientation))
}

/// Decodes a whole picture through `image`, then downscales it.
fn decode_buffered(bytes: &[u8], format: Format) -> Result<Picture> {
    if format == Format::Svg {
        return decode_svg(bytes);
    }
    let (image, orientation) = decode_whole(bytes, format, MAX_BUFFERED_PIXELS)?;
    let picture = downscale_image(&image)?;
    drop(image);
    if orientation == image::metadata::Orientation::NoTransforms {
        return Ok(picture);
    }
    let buffer = image::RgbaImage::from_raw(picture.width, picture.height, picture.rgba)
        .ok_or_else(|| Error::input("internal error: picture buffer size"))?;
    let mut oriented = DynamicImage::ImageRgba8(buffer);
    oriented.apply_orientation(orientation);
    let oriented = oriented.into_rgba8();
    Ok(Picture {
        width: oriented.width(),
        height: oriented.height(),
        rgba: oriented.into_raw(),
        vector: None,
        text: false,
    })
}

/// The most pixels a printed raster picture ([`decode_art`]) may have: a cover's front
/// (8.5 x 11 in at most) at 600 dpi is 33.7 megapixels.
pub const MAX_ART_PIXELS: u64 = 40_000_000;

/// Decodes a raster picture to print at its own resolution (a book cover's artwork or logo
/// given as PNG, JPEG, GIF, BMP or WebP): straight 8-bit RGBA, width and height, never
/// downscaled (the print's resolution is the picture's), the camera's orientation applied. At
/// most [`MAX_ART_PIXELS`]; decoding is bounded in memory like every picture's. An SVG is not a
/// raster picture: one line says so.
pub fn decode_art(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>)> {
    let format = Format::detect(bytes)?;
    if format == Format::Svg {
        return Err(Error::input("an SVG file is not a raster picture"));
    }
    let (mut image, orientation) = decode_whole(bytes, format, MAX_ART_PIXELS)?;
    image.apply_orientation(orientation);
    let rgba = image.into_rgba8();
    Ok((rgba.width(), rgba.height(), rgba.into_raw()))
}

/// Feeds a decoded image to the downscaler row by row, without a full RGBA copy for the
/// common 8-bit layouts.
fn downscale_image(image: &DynamicImage) -> Result<Picture> {
    let (w, h) = (image.width(), image.height());
    let mut down = Downscaler::new(w, h);
    let mut feed = |channels: usize, raw: &[u8]| {
        for line in raw.chunks_exact(w as usize * channels) {
            down.push(line, channels);
        }
    };
    match image {
        DynamicImage::ImageLuma8(b) => feed(1, b.as_raw()),
        DynamicImage::ImageLumaA8(b) => feed(2, b.as_raw()),
        DynamicImage::ImageRgb8(b) => feed(3, b.as_raw()),
        DynamicImage::ImageRgba8(b) => feed(4, b.as_raw()),
        other => feed(4, other.to_rgba8().as_raw()),
    }
    down.finish()
}

/// Parses an SVG and rasterises it at the bounded size, within the budget of
/// [`super::svg`] (filters and embedded images are ignored; no file is read).
fn decode_svg(bytes: &[u8]) -> Result<Picture> {
    let tree = super::svg::parse(bytes)?;
    let size = tree.size();
    let (w, h) = (f64::from(size.width()), f64::from(size.height()));
    if !(w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0) {
        return Err(Error::input("the SVG image has no valid size"));
    }
    let scale = f64::from(MAX_PICTURE_SIDE) / w.max(h);
    let pw = (libm::round(w * scale) as u32).clamp(1, MAX_PICTURE_SIDE);
    let ph = (libm::round(h * scale) as u32).clamp(1, MAX_PICTURE_SIDE);
    let transform = tiny_skia::Transform::from_scale(pw as f32 / w as f32, ph as f32 / h as f32);
    let pixmap = super::svg::render(&tree, transform, pw, ph)?;
    let mut rgba = Vec::with_capacity(pw as usize * ph as usize * 4);
    for p in pixmap.pixels() {
        let c = p.demultiply();
        rgba.extend_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
    }
    Ok(Picture {
        width: pw,
        height: ph,
        rgba,
        vector: super::vector::outline(&tree, transform, pw, ph).map(Arc::new),
        text: super::svg::draws_text(&tree),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cover's raster art is decoded at its own size up to 40 megapixels, and refused from
    /// its header past that; an SVG is not a raster picture.
    #[test]
    fn cover_art_keeps_its_pixels_and_is_bounded() {
        let png = |w: u32, h: u32| {
            let mut out = Vec::new();
            let mut enc = png::Encoder::new(&mut out, w, h);
            enc.set_color(png::ColorType::Rgb);
            let mut wr = enc.write_header().unwrap();
            wr.write_image_data(&vec![7u8; (w * h * 3) as usize])
                .unwrap();
            drop(wr);
            out
        };
        // larger than a shape's picture may be: kept whole
        let (w, h, rgba) = decode_art(&png(3000, 10)).unwrap();
        assert_eq!((w, h, rgba.len()), (3000, 10, 3000 * 10 * 4));
        assert_eq!(&rgba[..4], &[7, 7, 7, 255]);
        // a header of 9000 x 6000 pixels is refused before anything is decoded
        let mut big = png(1, 1);
        big[16..20].copy_from_slice(&9000u32.to_be_bytes());
        big[20..24].copy_from_slice(&6000u32.to_be_bytes());
        let mut crc = flate2::Crc::new();
        crc.update(&big[12..29]);
        big[29..33].copy_from_slice(&crc.sum().to_be_bytes());
        let e = decode_art(&big).unwrap_err().message;
        assert_eq!(
            e,
            "the picture is too large (9000 x 6000 pixels; the limit is 40 megapixels and 65535 \
             pixels a side)"
        );
        let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>"#;
        assert_eq!(
            decode_art(svg).unwrap_err().message,
            "an SVG file is not a raster picture"
        );
    }

    #[test]
    fn png_chunk_types_are_named_not_debug_printed() {
        let line = "CRC error: expected 0x8c9ac1a3 have 0x8c9ac1a2 while decoding ChunkType { type: \
                    IHDR, critical: true, private: false, reserved: false, safecopy: false } chunk";
        assert_eq!(
            without_chunk_debug(line),
            "CRC error: expected 0x8c9ac1a3 have 0x8c9ac1a2 while decoding IHDR chunk"
        );
        assert_eq!(without_chunk_debug("plain"), "plain");
    }

    #[test]
    fn an_interlaced_png_decodes_as_the_same_picture_not_interlaced() {
        // 16-bit RGBA, half-transparent and opaque parts, Adam7 interlaced or not (made with
        // ImageMagick): the interlaced one is decoded whole as 8-bit samples, the other streamed
        let interlaced =
            Picture::decode(include_bytes!("../../tests/pictures/disc-interlaced.png")).unwrap();
        let plain = Picture::decode(include_bytes!("../../tests/pictures/disc-plain.png")).unwrap();
        assert_eq!((interlaced.width, interlaced.height), (120, 90));
        assert_eq!(interlaced.rgba, plain.rgba);
        // the disc's colour and alpha came through, not only the shape
        let at = |x: usize, y: usize| &plain.rgba[(y * 120 + x) * 4..][..4];
        assert_eq!(at(60, 45), &[0x20, 0x40, 0x60, 0x80]);
        assert_eq!(at(20, 45), &[0xc0, 0x30, 0x10, 0xff]);
        assert_eq!(at(110, 5)[3], 0);
    }

    fn png_bytes(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
        let img = image::RgbaImage::from_fn(w, h, |x, y| image::Rgba(f(x, y)));
        let mut out = Vec::new();
        img.write_to(&mut Cursor::new(&mut out), ImageFormat::Png)
            .unwrap();
        out
    }

    #[test]
    fn formats_are_detected_by_content() {
        let png = png_bytes(3, 2, |_, _| [0, 0, 0, 255]);
        assert_eq!(Format::detect(&png).unwrap(), Format::Png);
        let svg =
            b"\xEF\xBB\xBF  <?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>";
        assert_eq!(Format::detect(svg).unwrap(), Format::Svg);
        assert!(Format::detect(b"").unwrap_err().message.contains("empty"));
        let e = Format::detect(b"hello world").unwrap_err();
        assert!(
            e.message.contains("PNG, JPEG, GIF, BMP, WebP or SVG"),
            "{e}"
        );
        let e = Format::detect(b"II*\0rest of a tiff").unwrap_err();
        assert!(e.message.contains("TIF"), "{e}");
        assert_eq!(Format::from_extension("JPG"), Some(Format::Jpeg));
        assert_eq!(Format::from_extension("txt"), None);
    }

    #[test]
    fn png_round_trip_and_downscale() {
        let png = png_bytes(5, 3, |x, y| [x as u8 * 10, y as u8 * 20, 7, 255]);
        let p = Picture::decode(&png).unwrap();
        assert_eq!((p.width(), p.height()), (5, 3));
        assert_eq!(p.pixel(4, 2), [40, 40, 7, 255]);
        // a wide picture is reduced to MAX_PICTURE_SIDE across, aspect kept
        let big = png_bytes(4096, 10, |x, _| {
            if x < 2048 {
                [255, 0, 0, 255]
            } else {
                [0, 0, 255, 0]
            }
        });
        let p = Picture::decode(&big).unwrap();
        assert_eq!((p.width(), p.height()), (2048, 5));
        assert_eq!(p.pixel(0, 0), [255, 0, 0, 255]);
        // the colour under transparent pixels does not bleed
        assert_eq!(p.pixel(2047, 4), [0, 0, 0, 0]);
    }

    #[test]
    fn alpha_weighted_average_hides_colour_under_transparency() {
        let rgba: Vec<u8> = (0..4096 * 2)
            .flat_map(|i| {
                if i % 2 == 0 {
                    [10, 20, 30, 255]
                } else {
                    [255, 255, 255, 0]
                }
            })
            .collect();
        let p = Picture::from_rgba(4096, 2, &rgba).unwrap();
        assert_eq!(p.width(), 2048);
        assert_eq!(p.pixel(5, 0), [10, 20, 30, 128]);
    }

    #[test]
    fn truncated_and_corrupt_png_are_errors() {
        let png = png_bytes(64, 64, |x, y| [(x * y) as u8, 0, 0, 255]);
        let e = Picture::decode(&png[..png.len() / 2]).unwrap_err();
        assert!(e.message.contains("truncated"), "{e}");
        let mut bad = png.clone();
        for b in bad.iter_mut().skip(60).take(40) {
            *b ^= 0x5a;
        }
        let e = Picture::decode(&bad).unwrap_err();
        assert!(e.message.starts_with("the PNG image is"), "{e}");
        assert!(!e.message.contains('\n'));
    }

    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn huge_headers_are_refused_before_decoding() {
        // a valid PNG header (checksum included) claiming 100000 x 100000 pixels, no data
        let mut png = png_bytes(1, 1, |_, _| [0; 4]);
        png[16..20].copy_from_slice(&100_000u32.to_be_bytes());
        png[20..24].copy_from_slice(&100_000u32.to_be_bytes());
        let crc = crc32(&png[12..29]);
        png[29..33].copy_from_slice(&crc.to_be_bytes());
        let e = Picture::decode(&png).unwrap_err();
        assert!(e.message.contains("too large (100000 x 100000"), "{e}");
        assert!(check_source_size(60_000, 60_000, MAX_STREAMED_PIXELS).is_err());
        assert!(check_source_size(8200, 8200, MAX_BUFFERED_PIXELS).is_err());
        assert!(check_source_size(8000, 8000, MAX_BUFFERED_PIXELS).is_ok());
        assert!(check_source_size(8000, 8000, MAX_STREAMED_PIXELS).is_ok());
    }

    #[test]
    fn svg_is_rasterised_at_the_bounded_size() {
        let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect x="0" y="0" width="10" height="10"/><image href="/etc/passwd" width="5" height="5"/></svg>"#;
        let p = Picture::decode(svg).unwrap();
        assert_eq!((p.width(), p.height()), (2048, 1024));
        assert_eq!(p.pixel(100, 100), [0, 0, 0, 255]);
        assert_eq!(p.pixel(1500, 100)[3], 0);
        let e = Picture::decode(b"<svg xmlns=\"http://www.w3.org/2000/svg\"><rect").unwrap_err();
        assert!(e.message.starts_with("the SVG image is corrupt"), "{e}");
    }
}
