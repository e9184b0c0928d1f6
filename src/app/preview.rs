//! The central preview: the maze's walls (and, with the answer key on, its solution) painted with
//! [`egui::Painter`], with pan (drag), zoom (scroll) and fit-to-panel (double-click).
//!
//! This painter works straight from the topology's cell sides. It is a stop-gap: once the shared
//! display list `hedge::draw::Drawing` lands, it is to be replaced by a renderer of that Drawing,
//! so the preview is exactly what prints.

use egui::{Color32, Pos2, Rect, Sense, Stroke, Vec2, pos2, vec2};

use crate::grid::CellId;
use crate::pipeline::Generated;
use crate::topology::{Point, Side};

/// The lines to paint for one maze, in maze units (y down), computed once per result.
#[derive(Clone, Debug, Default)]
pub struct Shapes {
    /// Wall polylines (straight walls have two points, arcs more).
    pub walls: Vec<Vec<Pos2>>,
    /// The solution: entrance opening, cell centres, exit opening.
    pub solution: Vec<Pos2>,
    /// Width and height of the maze's bounding box.
    pub extent: Vec2,
}

fn p(pt: Point) -> Pos2 {
    pos2(pt.x as f32, pt.y as f32)
}

/// The middle of a side (of the arc, not of its chord, for polar rings).
fn mid(s: &Side) -> Pos2 {
    let pts = arc_points(s);
    if s.arc.is_some() {
        pts[pts.len() / 2]
    } else {
        pts[0].lerp(pts[1], 0.5)
    }
}

/// A side as a polyline: its two ends, or points along its arc.
fn arc_points(s: &Side) -> Vec<Pos2> {
    let Some(arc) = s.arc else {
        return vec![p(s.a), p(s.b)];
    };
    let (cx, cy) = (arc.center.x, arc.center.y);
    let a0 = (s.a.y - cy).atan2(s.a.x - cx);
    let mut a1 = (s.b.y - cy).atan2(s.b.x - cx);
    let tau = std::f64::consts::TAU;
    // clockwise on screen (y down) is increasing atan2 angle
    if arc.clockwise {
        while a1 < a0 {
            a1 += tau;
        }
    } else {
        while a1 > a0 {
            a1 -= tau;
        }
    }
    let len = (a1 - a0).abs() * arc.radius;
    let n = ((len * 4.0).ceil() as usize).clamp(2, 64);
    let mut out = Vec::with_capacity(n + 1);
    out.push(p(s.a));
    for i in 1..n {
        let t = a0 + (a1 - a0) * i as f64 / n as f64;
        out.push(pos2(
            (cx + arc.radius * t.cos()) as f32,
            (cy + arc.radius * t.sin()) as f32,
        ));
    }
    out.push(p(s.b));
    out
}

impl Shapes {
    /// The walls and solution of `g`: a wall on every side with no passage across, except the
    /// sides opened for the entrance and exit; each inner wall once.
    pub fn of(g: &Generated) -> Shapes {
        let maze = &g.maze;
        let grid = maze.grid();
        let mut walls = Vec::new();
        let mut sides = Vec::new();
        for c in grid.cells() {
            sides.clear();
            grid.sides(c, &mut sides);
            for (i, s) in sides.iter().enumerate() {
                let across = s.neighbour.and_then(|n| grid.id_at(n));
                let wall = match across {
                    // inner side: drawn from the smaller id only
                    Some(n) => n > c && !maze.linked(c, n),
                    None => {
                        !(g.entrance.cell == c && g.entrance.side == i
                            || g.exit.cell == c && g.exit.side == i)
                    }
                };
                if wall {
                    walls.push(arc_points(s));
                }
            }
        }
        let mut solution = Vec::with_capacity(g.solution.len() + 2);
        let opening = |cell: CellId, side: usize| {
            let mut ss = Vec::new();
            grid.sides(cell, &mut ss);
            ss.get(side).map(mid)
        };
        solution.extend(opening(g.entrance.cell, g.entrance.side));
        solution.extend(g.solution.iter().map(|&c| p(grid.center(c))));
        solution.extend(opening(g.exit.cell, g.exit.side));
        let (w, h) = grid.topology().tess().extent();
        Shapes {
            walls,
            solution,
            extent: vec2(w as f32, h as f32),
        }
    }
}

/// Pan and zoom of the preview; the default fits the maze to the panel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// Zoom relative to fit (1 = the whole maze fits the panel).
    pub zoom: f32,
    /// Offset of the maze's centre from the panel's centre, in points.
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

/// Colours of the preview (the one place they are chosen).
struct Theme {
    paper: Color32,
    wall: Color32,
    solution: Color32,
}

impl Theme {
    fn of(dark: bool) -> Theme {
        if dark {
            Theme {
                paper: Color32::from_gray(28),
                wall: Color32::from_gray(225),
                solution: Color32::from_rgb(255, 120, 90),
            }
        } else {
            Theme {
                paper: Color32::WHITE,
                wall: Color32::BLACK,
                solution: Color32::from_rgb(220, 50, 30),
            }
        }
    }
}

/// Paints `shapes` into all the space `ui` has left, handling pan and zoom on `view`.
pub fn show(ui: &mut egui::Ui, shapes: Option<&Shapes>, answer_key: bool, view: &mut View) {
    let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::accesskit::Role::Image, true, "Maze preview")
    });
    let theme = Theme::of(ui.visuals().dark_mode);
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, theme.paper);
    let Some(shapes) = shapes else {
        return;
    };
    if response.dragged() {
        view.pan += response.drag_delta();
    }
    if response.double_clicked() {
        *view = View::default();
    }
    if let Some(hover) = response.hover_pos() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        let pinch = ui.input(|i| i.zoom_delta());
        let factor = (scroll * 0.002).exp() * pinch;
        if factor != 1.0 {
            let new_zoom = (view.zoom * factor).clamp(0.2, 60.0);
            let f = new_zoom / view.zoom;
            // keep the point under the pointer still
            let from_centre = hover - rect.center() - view.pan;
            view.pan -= from_centre * (f - 1.0);
            view.zoom = new_zoom;
        }
    }
    let ext = shapes.extent.max(vec2(1e-3, 1e-3));
    let margin = 12.0;
    let fit = ((rect.width() - 2.0 * margin) / ext.x)
        .min((rect.height() - 2.0 * margin) / ext.y)
        .max(0.01);
    let scale = fit * view.zoom;
    let origin = rect.center() + view.pan - ext * 0.5 * scale;
    let to_screen = |q: Pos2| origin + q.to_vec2() * scale;
    let width = (scale * 0.08).clamp(1.0, 3.0);
    let stroke = Stroke::new(width, theme.wall);
    let visible = rect.expand(width);
    for wall in &shapes.walls {
        if wall.len() == 2 {
            let (a, b) = (to_screen(wall[0]), to_screen(wall[1]));
            if visible.intersects(Rect::from_two_pos(a, b)) {
                painter.line_segment([a, b], stroke);
            }
        } else {
            painter.line(wall.iter().map(|&q| to_screen(q)).collect(), stroke);
        }
    }
    if answer_key && shapes.solution.len() >= 2 {
        let pts = shapes.solution.iter().map(|&q| to_screen(q)).collect();
        painter.line(
            pts,
            Stroke::new((scale * 0.25).clamp(1.5, 6.0), theme.solution),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::Design;
    use crate::pipeline::generate;
    use crate::topology::TopologyKind;

    #[test]
    fn a_perfect_rect_maze_has_the_expected_wall_count() {
        // w*h cells, (w*h - 1) passages: inner walls = inner sides - passages, plus the outline
        // minus the two openings.
        let (w, h) = (7u32, 5u32);
        let g = generate(
            &Design {
                width: w,
                height: h,
                seed: Some(3),
                ..Design::default()
            },
            None,
        )
        .unwrap();
        let s = Shapes::of(&g);
        let inner = (w - 1) * h + (h - 1) * w;
        let expected = inner - (w * h - 1) + 2 * (w + h) - 2;
        assert_eq!(s.walls.len(), expected as usize);
        assert_eq!(s.solution.len(), g.solution.len() + 2);
        assert_eq!(s.extent, vec2(w as f32, h as f32));
    }

    #[test]
    fn every_topology_gives_shapes() {
        for kind in TopologyKind::ALL {
            let g = generate(
                &Design {
                    topology: kind,
                    width: 6,
                    height: 6,
                    seed: Some(1),
                    ..Design::default()
                },
                None,
            )
            .unwrap();
            let s = Shapes::of(&g);
            assert!(!s.walls.is_empty(), "{kind}");
            for wall in &s.walls {
                for q in wall {
                    assert!(q.x >= -1e-3 && q.x <= s.extent.x + 1e-3, "{kind} {q:?}");
                    assert!(q.y >= -1e-3 && q.y <= s.extent.y + 1e-3, "{kind} {q:?}");
                }
            }
        }
    }
}
