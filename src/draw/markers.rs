//! The [`Layer::Markers`] layer: an arrow through the entrance and the exit openings, and the
//! START and FINISH labels, drawn where the placement step (`place.rs`) put them: outside the
//! shape, clear of it, of each other and of the text around the page.

use super::font::CAP_HEIGHT_EM;
use super::layout::{Layout, Role, label_em, unit};
use super::model::{Anchor, Area, Item, Layer, Path, Pos, Rgb, Seg, Shape, Text};
use super::place::Marker;

/// Arrow from `tail` to `tip` with a filled head (its box: `place::arrow_box`) and a shaft
/// `shaft` millimetres wide.
fn arrow(tail: Pos, tip: Pos, (head_len, head_w, shaft): (f64, f64, f64), items: &mut Vec<Item>) {
    let d = unit(tip.x - tail.x, tip.y - tail.y);
    let p = (-d.1, d.0);
    let base = tip.add(d, -head_len);
    items.push(Item {
        layer: Layer::Markers,
        shape: Shape::Stroke {
            path: Path::polyline(&[tail, base.add(d, head_len * 0.3)]),
            width: shaft,
            color: Rgb::BLACK,
        },
    });
    items.push(Item {
        layer: Layer::Markers,
        shape: Shape::Fill {
            path: Path::polygon(&[tip, base.add(p, head_w / 2.0), base.add(p, -head_w / 2.0)]),
            color: Rgb::BLACK,
        },
    });
}

/// The green of the START dot: dark enough to read as a mark in grey.
pub(super) const START_GREEN: Rgb = Rgb(30, 150, 60);

/// A circle of radius `r` round `c` (four cubic arcs).
pub(super) fn circle(c: Pos, r: f64) -> Path {
    const K: f64 = 0.552_284_749_8;
    let p = |dx: f64, dy: f64| Pos::new(c.x + dx * r, c.y + dy * r);
    Path::from(vec![
        Seg::MoveTo(p(1.0, 0.0)),
        Seg::CubicTo(p(1.0, K), p(K, 1.0), p(0.0, 1.0)),
        Seg::CubicTo(p(-K, 1.0), p(-1.0, K), p(-1.0, 0.0)),
        Seg::CubicTo(p(-1.0, -K), p(-K, -1.0), p(0.0, -1.0)),
        Seg::CubicTo(p(K, -1.0), p(1.0, -K), p(1.0, 0.0)),
        Seg::Close,
    ])
}

/// The START dot in the square box `b`: a green disc with a black rim.
fn start_dot(b: &Area, items: &mut Vec<Item>) {
    let c = Pos::new(b.x + b.w / 2.0, b.y + b.h / 2.0);
    let rim = (b.w * 0.06).max(0.4);
    let r = b.w.min(b.h) / 2.0 - rim / 2.0;
    items.push(Item {
        layer: Layer::Markers,
        shape: Shape::Fill {
            path: circle(c, r),
            color: START_GREEN,
        },
    });
    items.push(Item {
        layer: Layer::Markers,
        shape: Shape::Stroke {
            path: circle(c, r),
            width: rim,
            color: Rgb::BLACK,
        },
    });
}

/// The FINISH flag in the square box `b`: a pole on the left and a chequered flag of 4 x 3
/// squares flying from its top, outlined in black.
fn finish_flag(b: &Area, items: &mut Vec<Item>) {
    let s = b.w.min(b.h);
    let pole = (s * 0.08).max(0.5);
    let (x0, y0) = (b.x + pole / 2.0, b.y + pole / 2.0);
    items.push(Item {
        layer: Layer::Markers,
        shape: Shape::Stroke {
            path: Path::polyline(&[Pos::new(x0, y0), Pos::new(x0, b.y + s - pole / 2.0)]),
            width: pole,
            color: Rgb::BLACK,
        },
    });
    let (fx, fw, fh) = (
        x0 + pole / 2.0,
        b.x + s - pole / 2.0 - (x0 + pole / 2.0),
        s * 0.55,
    );
    let (cols, rows) = (4, 3);
    let (cw, ch) = (fw / f64::from(cols), fh / f64::from(rows));
    let mut squares = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if (r + c) % 2 == 0 {
                let (x, y) = (fx + f64::from(c) * cw, y0 + f64::from(r) * ch);
                squares.extend(
                    Path::polygon(&[
                        Pos::new(x, y),
                        Pos::new(x + cw, y),
                        Pos::new(x + cw, y + ch),
                        Pos::new(x, y + ch),
                    ])
                    .segs(),
                );
            }
        }
    }
    items.push(Item {
        layer: Layer::Markers,
        shape: Shape::Fill {
            path: Path::from(squares),
            color: Rgb::BLACK,
        },
    });
    items.push(Item {
        layer: Layer::Markers,
        shape: Shape::Stroke {
            path: Path::polygon(&[
                Pos::new(fx, y0),
                Pos::new(fx + fw, y0),
                Pos::new(fx + fw, y0 + fh),
                Pos::new(fx, y0 + fh),
            ]),
            width: (s * 0.04).max(0.3),
            color: Rgb::BLACK,
        },
    });
}

/// Appends the entrance and exit arrows (the entrance's pointing in, the exit's out) and their
/// START and FINISH labels (or, on a page with symbols, the green dot and the chequered flag),
/// as `markers` places them, to `items`.
pub(super) fn draw_markers(lay: &Layout, markers: &[Marker], items: &mut Vec<Item>) {
    for m in markers {
        let (tail, tip) = m.tail_tip();
        arrow(tail, tip, (m.head_len, m.head_w, m.shaft), items);
        let b = m.label_box;
        // a "Which path?" entrance says its letter whatever the page's marks
        let letter = matches!(m.role, Role::Letter(_));
        if let Some(pics) = lay.pictures.as_ref().filter(|_| !letter) {
            if m.entrance {
                super::picture::draw(&pics[0], &b, Layer::StartPicture, items);
            } else {
                super::picture::draw(&pics[1], &b, Layer::FinishPicture, items);
            }
            continue;
        }
        if lay.symbols && !letter {
            if m.entrance {
                start_dot(&b, items);
            } else {
                finish_flag(&b, items);
            }
            continue;
        }
        items.push(Item {
            layer: Layer::Markers,
            shape: Shape::Text(Text {
                rotated: crate::draw::Rotation::Across,
                text: m.label.clone(),
                at: Pos::new(b.x + b.w / 2.0, b.y + CAP_HEIGHT_EM * label_em(lay.markers)),
                size: label_em(lay.markers),
                anchor: Anchor::Middle,
                bold: true,
                face: lay.face,
                color: Rgb::BLACK,
            }),
        });
    }
}

/// The answer key's mark of the entrance joined to the exit on a "Which path?" puzzle: a ring
/// in the answer line's colour round its letter (`label`: the letter's box).
pub(super) fn ring_winner(label: &Area, items: &mut Vec<Item>) {
    // round the capital letter (the box reaches down to the descenders, which a letter A to
    // D has none of)
    let cap = label.h * CAP_HEIGHT_EM / (CAP_HEIGHT_EM + super::font::DESCENT_EM);
    let c = Pos::new(label.x + label.w / 2.0, label.y + cap / 2.0);
    let width = 0.6;
    let r = label.w.hypot(cap) / 2.0 + 1.0 + width / 2.0;
    items.push(Item {
        layer: Layer::Solution,
        shape: Shape::Stroke {
            path: circle(c, r),
            width,
            color: Rgb::SOLUTION,
        },
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::tests::maze;
    use crate::draw::{Area, CAP_HEIGHT_EM, layout, puzzle_page};
    use crate::page::{MarkerSize, PageSetup};

    /// The bounding box of the points of `path`.
    fn bounds(path: &Path) -> Area {
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for s in path.segs() {
            let pts = match s {
                Seg::MoveTo(p) | Seg::LineTo(p) => vec![p],
                Seg::CubicTo(a, b, c) => vec![a, b, c],
                Seg::Close => vec![],
            };
            for p in pts {
                (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
            }
        }
        Area {
            x: x0,
            y: y0,
            w: x1 - x0,
            h: y1 - y0,
        }
    }

    #[test]
    fn symbols_replace_the_words_beside_their_arrows() {
        for (seed, size) in [(1, MarkerSize::Huge), (2, MarkerSize::Normal)] {
            let g = maze(8, 10, seed);
            let setup = PageSetup {
                markers: size,
                symbols: true,
                ..PageSetup::default()
            };
            let d = puzzle_page(&g, &setup).unwrap();
            let l = layout(&g, &setup).unwrap();
            let items: Vec<&Item> = d.layer(Layer::Markers).collect();
            assert!(
                !items.iter().any(|i| matches!(i.shape, Shape::Text(_))),
                "no words"
            );
            // the green dot: one green fill, a square of the symbol's size, off the maze
            let dots: Vec<Area> = items
                .iter()
                .filter_map(|i| match &i.shape {
                    Shape::Fill { path, color } if *color == START_GREEN => Some(bounds(path)),
                    _ => None,
                })
                .collect();
            assert_eq!(dots.len(), 1);
            let side = crate::draw::layout::symbol_mm(size);
            assert!(
                dots[0].w > 0.8 * side && dots[0].w <= side + 1e-9,
                "{dots:?}"
            );
            assert!(!dots[0].overlaps(&l.maze_box));
            // the flag: a pole and the chequered squares (six of the 4 x 3 black)
            let flag = items
                .iter()
                .find_map(|i| match &i.shape {
                    Shape::Fill { path, color } if *color == Rgb::BLACK && path.subpaths() == 6 => {
                        Some(bounds(path))
                    }
                    _ => None,
                })
                .expect("a chequered flag");
            assert!(!flag.overlaps(&l.maze_box));
            // with its pole, left of the squares
            let pole = (side * 0.08).max(0.5);
            let flag = Area {
                x: flag.x - pole,
                w: flag.w + pole,
                ..flag
            };
            // each within 4 mm of its arrow's outer end: the entrance's tail, the exit's tip
            let ends: Vec<Pos> = items
                .iter()
                .filter_map(|i| match &i.shape {
                    Shape::Stroke { path, width, .. } if *width == size.shaft_mm() => {
                        path.segs().next().map(|s| match s {
                            Seg::MoveTo(p) => p,
                            _ => unreachable!(),
                        })
                    }
                    _ => None,
                })
                .collect();
            let near = |b: &Area, p: Pos| {
                let dx = (b.x - p.x).max(p.x - (b.x + b.w)).max(0.0);
                let dy = (b.y - p.y).max(p.y - (b.y + b.h)).max(0.0);
                dx.hypot(dy) <= crate::draw::layout::LABEL_REACH_MAX
            };
            assert!(near(&dots[0], ends[0]), "{dots:?} {ends:?}");
            let tips: Vec<Pos> = items
                .iter()
                .filter_map(|i| match &i.shape {
                    Shape::Fill { path, color } if *color == Rgb::BLACK && path.subpaths() == 1 => {
                        path.segs().next().map(|s| match s {
                            Seg::MoveTo(p) => p,
                            _ => unreachable!(),
                        })
                    }
                    _ => None,
                })
                .collect();
            // the second arrow head's tip is the exit arrow's outer end
            assert!(near(&flag, tips[1]), "{flag:?} {tips:?}");
        }
    }

    #[test]
    fn labels_stay_off_the_maze() {
        for seed in 0..6 {
            let g = maze(15, 10, seed);
            let d = puzzle_page(&g, &PageSetup::default()).unwrap();
            let l = layout(&g, &PageSetup::default()).unwrap();
            for t in d.layer(Layer::Markers).filter_map(|i| match &i.shape {
                Shape::Text(t) => Some(t),
                _ => None,
            }) {
                let bx = Area {
                    x: t.left(),
                    y: t.at.y - CAP_HEIGHT_EM * t.size,
                    w: t.width(),
                    h: CAP_HEIGHT_EM * t.size,
                };
                assert!(!bx.overlaps(&l.maze_box), "{} overlaps the maze", t.text);
            }
        }
    }
}
