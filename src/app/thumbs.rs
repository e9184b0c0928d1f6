//! Thumbnails of the built-in shapes: each silhouette decoded and cut like a design's shape,
//! then shrunk to a small dark-on-light picture. They are made one by one as background tasks
//! the first time the shape list is shown, so the window never waits for the decoder.

use egui::{Color32, ColorImage, TextureHandle, TextureOptions};

use super::task::{Spawner, Task};
use crate::shape::{Cut, Foreground, builtin};

/// The side of a thumbnail, in pixels.
pub const SIZE: usize = 40;

/// The thumbnails, as far as they are made.
pub struct Thumbnails {
    tasks: Spawner,
    /// The shapes still to make, last first (`None` until the list is first shown).
    queue: Option<Vec<&'static str>>,
    /// The thumbnail being made.
    running: Option<(&'static str, Task<Option<ColorImage>>)>,
    /// Loaded textures by shape name, in the order they arrived.
    pub textures: Vec<(String, TextureHandle)>,
}

impl Thumbnails {
    /// No thumbnails yet; `tasks` will make them.
    pub fn new(tasks: Spawner) -> Thumbnails {
        Thumbnails {
            tasks,
            queue: None,
            running: None,
            textures: Vec::new(),
        }
    }

    /// Starts making them on the first call; afterwards loads whatever is finished and starts
    /// the next. Called every frame the shape list is shown.
    pub fn poll(&mut self, ctx: &egui::Context) {
        let queue = self.queue.get_or_insert_with(|| {
            let mut names: Vec<&'static str> = builtin::names().collect();
            names.reverse();
            names
        });
        loop {
            if let Some((name, task)) = &self.running {
                let Some(r) = task.poll() else { return };
                // a shape that does not decode (or a panic) simply has no thumbnail
                if let Ok(Some(img)) = r {
                    let tex =
                        ctx.load_texture(format!("shape-{name}"), img, TextureOptions::LINEAR);
                    self.textures.push((name.to_string(), tex));
                }
                self.running = None;
            }
            let Some(name) = queue.pop() else { return };
            let task = self
                .tasks
                .spawn("making a thumbnail", move |_| thumbnail(name));
            self.running = Some((name, task));
        }
    }

    /// The thumbnail of a built-in shape, if made.
    pub fn get(&self, name: &str) -> Option<&TextureHandle> {
        self.textures
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
    }
}

/// The thumbnail of the built-in shape `name`.
pub fn thumbnail(name: &str) -> Option<ColorImage> {
    let loaded =
        crate::io::load_shape(&crate::shape::ShapeSource::Builtin(name.into()), None).ok()?;
    let fg = Foreground::from_picture(&loaded.picture, Cut::default()).ok()?;
    Some(shrink(&fg))
}

/// `fg` shrunk into a [`SIZE`]-pixel square (aspect kept, centred): each pixel's darkness is
/// the share of the shape in the patch of the picture it covers.
pub fn shrink(fg: &Foreground) -> ColorImage {
    let (w, h) = (fg.width() as usize, fg.height() as usize);
    let k = (w.max(h) as f64 / SIZE as f64).max(1e-9);
    let (ox, oy) = (
        (SIZE as f64 - w as f64 / k) / 2.0,
        (SIZE as f64 - h as f64 / k) / 2.0,
    );
    let mut pixels = vec![Color32::TRANSPARENT; SIZE * SIZE];
    for y in 0..SIZE {
        for x in 0..SIZE {
            // a 3x3 sample of the patch
            let mut on = 0;
            for sy in 0..3 {
                for sx in 0..3 {
                    let px = ((x as f64 + (sx as f64 + 0.5) / 3.0 - ox) * k).floor() as i64;
                    let py = ((y as f64 + (sy as f64 + 0.5) / 3.0 - oy) * k).floor() as i64;
                    on += usize::from(fg.get(px, py));
                }
            }
            if on > 0 {
                let a = (on * 255 / 9) as u8;
                pixels[y * SIZE + x] = Color32::from_rgba_unmultiplied(30, 30, 30, a);
            }
        }
    }
    ColorImage::new([SIZE, SIZE], pixels)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thumbnail_shows_the_shape_centred() {
        let img = thumbnail("heart").expect("the heart decodes");
        assert_eq!(img.size, [SIZE, SIZE]);
        let dark = |x: usize, y: usize| img.pixels[y * SIZE + x].a() > 128;
        assert!(dark(SIZE / 2, SIZE / 2), "the middle of a heart is shape");
        assert!(!dark(0, SIZE - 1), "a heart's bottom corner is not");
        let on = img.pixels.iter().filter(|p| p.a() > 128).count();
        assert!(on > SIZE * SIZE / 4 && on < SIZE * SIZE, "{on}");
    }
}
