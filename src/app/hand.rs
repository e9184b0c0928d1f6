//! The hand tools on the maze: a click on a wall locks it as it stands (a passage open, a wall
//! closed) or unlocks it; a brush stroke over cells carves that region again from a new seed,
//! the rest of the maze unchanged. Both are design edits ([`crate::design::Walls::lock`],
//! [`crate::design::Walls::recarve`]), one undo step each, saved in the design file and made by
//! the command line's `--design` the same way ([`crate::locks`]). The locks and the regions
//! show on the preview as overlays, never printed. A lasso (a loop drawn round cells) picks
//! the region by the cells whose centres it holds, the line shown while it is drawn.

use crate::difficulty::candidate_seed;
use crate::endpoints::Placement;
use crate::topology::{Coord, Point};

use super::HedgeApp;
use crate::design::Design;

/// Whether the maze point `q` is inside the closed loop `ring` (its last point joined to its
/// first): crossings of a ray to the right, even-odd.
pub fn inside(ring: &[Point], q: Point) -> bool {
    let mut inside = false;
    for (i, a) in ring.iter().enumerate() {
        let b = ring[(i + 1) % ring.len()];
        if (a.y > q.y) != (b.y > q.y) && q.x < a.x + (q.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            inside = !inside;
        }
    }
    inside
}

/// A lasso on the preview ([`super::Tool::Lasso`]): the points under the pointer gather while
/// the button is down (the line drawn on screen, closed back to its start); let go, the cells
/// of the maze whose centres the loop holds are carved again, as a brushed region is.
pub(super) fn lasso_stroke(
    app: &mut HedgeApp,
    ui: &egui::Ui,
    response: &egui::Response,
    place: super::preview::PageOnScreen,
) {
    let primary = ui.input(|i| i.pointer.primary_down());
    if response.is_pointer_button_down_on() && primary {
        if let Some(pos) = response.interact_pointer_pos()
            && let Some((_, p)) = app.preview()
        {
            let q = p.maze_point(place.to_page(pos));
            app.view.lasso_to(q);
        }
    } else if !app.view.lasso().is_empty() {
        let ring = app.view.take_lasso();
        let cells = app.lasso_cells(&ring);
        if cells.is_empty() {
            app.message = Some(Err(
                "the loop holds no cell's centre: draw it round the cells to carve again".into(),
            ));
        } else {
            app.pending.push(super::Command::Recarve { cells });
        }
    }
    let Some((_, p)) = app.preview() else { return };
    let points: Vec<egui::Pos2> = app
        .view
        .lasso()
        .iter()
        .map(|&q| place.to_screen(p.page_point(q)))
        .collect();
    if points.len() > 1 {
        let blue = egui::Color32::from_rgb(40, 120, 255);
        let painter = ui.painter();
        painter.add(egui::Shape::line(
            points.clone(),
            egui::Stroke::new(2.0, blue),
        ));
        // the closing edge, thinner: where the loop will be shut
        painter.line_segment(
            [points[points.len() - 1], points[0]],
            egui::Stroke::new(1.0, blue.gamma_multiply(0.6)),
        );
    }
}

/// `d` without its hand work: no locks, no regions carved again.
pub(super) fn clear(d: &mut Design) {
    if let Some(w) = d.walls_mut() {
        w.lock = crate::locks::Locks::NONE;
        w.recarve.clear();
    }
}

impl HedgeApp {
    /// The wall of the current maze nearest the maze point `q`, as the two cells either side
    /// (both in the maze), if `q` is within half a cell of one.
    pub fn wall_at_maze(&self, q: Point) -> Option<(Coord, Coord)> {
        let g = self.generated()?;
        let grid = g.maze.grid();
        let c = self.cell_at_maze(q)?;
        grid.id_at(c)?;
        let mut sides = Vec::new();
        grid.topology().tess().sides(c, &mut sides);
        sides
            .iter()
            .filter_map(|s| {
                let n = s.neighbour?;
                grid.id_at(n)?;
                Some((crate::shape::outline::seg_dist(q, s.a, s.b), n))
            })
            .min_by(|x, y| x.0.total_cmp(&y.0))
            .filter(|(d, _)| *d < 0.5)
            .map(|(_, n)| (c, n))
    }

    /// The cell on the current maze's outline (where an entrance or exit can open) nearest the
    /// maze point `q`, if one is within a cell and a half: a click or a drag let go near the
    /// edge snaps to it.
    pub fn opening_at_maze(&self, q: Point) -> Option<Coord> {
        let g = self.generated()?;
        let grid = g.maze.grid();
        crate::endpoints::outline(grid)
            .into_iter()
            .map(|c| {
                let m = grid.center(c);
                ((m.x - q.x).hypot(m.y - q.y), grid.coord(c))
            })
            .min_by(|x, y| x.0.total_cmp(&y.0))
            .filter(|(d, _)| *d < 1.5)
            .map(|(_, c)| c)
    }

    /// The cells of the current maze whose centres are inside the loop `ring` (maze units).
    pub fn lasso_cells(&self, ring: &[Point]) -> Vec<Coord> {
        let Some(g) = self.generated() else {
            return Vec::new();
        };
        let grid = g.maze.grid();
        if ring.len() < 3 {
            return Vec::new();
        }
        let mut cells: Vec<Coord> = grid
            .cells()
            .filter(|&c| inside(ring, grid.center(c)))
            .map(|c| grid.coord(c))
            .collect();
        cells.sort_unstable_by_key(|c| (c.row, c.col));
        cells
    }

    /// Locks the wall between `a` and `b` as the maze shown has it (a passage open, a wall
    /// closed), or unlocks it when it is locked: one undo step.
    pub(super) fn lock_wall(&mut self, a: Coord, b: Coord) {
        let Some(g) = self.generated() else { return };
        let grid = g.maze.grid();
        let (Some(x), Some(y)) = (grid.id_at(a), grid.id_at(b)) else {
            return;
        };
        let open = g.maze.linked(x, y);
        let mut d = self.design().clone();
        let Some(w) = d.walls_mut() else { return };
        if w.weave > 0.0 || w.starts > 1 {
            self.message = Some(Err(
                "locking walls needs a maze without weave or several starts".into(),
            ));
            return;
        }
        let next = match w.lock.get(a, b) {
            Some(_) => None,
            None => Some(open),
        };
        w.lock.set(a, b, next);
        if let Err(e) = w.lock.check() {
            self.message = Some(Err(e.to_string()));
            return;
        }
        self.set_design(d, false);
        // after the edit, which clears notes about earlier actions
        self.message = Some(Ok(match next {
            Some(true) => "passage locked open (click it again to unlock)".into(),
            Some(false) => "wall locked closed (click it again to unlock)".into(),
            None => "unlocked".into(),
        }));
    }

    /// Carves the cells of `region` again from a new seed (the design's seed and how many
    /// regions it has, so the same strokes make the same maze): one undo step.
    pub(super) fn recarve(&mut self, region: Vec<Coord>) {
        if region.is_empty() {
            return;
        }
        let mut d = self.design().clone();
        let base = d.seed.unwrap_or(0);
        // START and FINISH stay where they are: placed by a rule, the new passages would move
        // them (the rule runs on the new maze)
        let ends = self.generated().map(|g| {
            let grid = g.maze.grid();
            (grid.coord(g.entrance.cell), grid.coord(g.exit.cell))
        });
        let Some(w) = d.walls_mut() else { return };
        if w.weave > 0.0 || w.starts > 1 {
            self.message = Some(Err(
                "re-carving needs a maze without weave or several starts".into(),
            ));
            return;
        }
        let mut pinned = "";
        if let Some((entrance, exit)) = ends
            && !matches!(w.placement, Placement::Cells { .. })
        {
            w.placement = Placement::Cells { entrance, exit };
            pinned = "; START and FINISH kept where they were";
        }
        // at most MAX_SEED, as every candidate seed
        let seed = candidate_seed(base, 0x5EC0 + w.recarve.len() as u64);
        let mut cells: Vec<[u32; 2]> = region.iter().map(|c| [c.row, c.col]).collect();
        cells.sort_unstable();
        cells.dedup();
        let n = cells.len();
        w.recarve.push(crate::locks::Recarve { seed, cells });
        if let Err(e) = crate::locks::check_recarves(&w.recarve, crate::design::MAX_SEED) {
            self.message = Some(Err(e.to_string()));
            return;
        }
        self.set_design(d, false);
        // after the edit, which clears notes about earlier actions
        self.message = Some(Ok(format!(
            "{n} cells carved again{pinned} (undo to take it back)"
        )));
    }
}

#[cfg(test)]
mod tests {
    use crate::app::tests::settle;
    use crate::app::{Command, HedgeApp, Persisted};
    use crate::design::Design;
    use crate::endpoints::Placement;
    use crate::topology::Coord;

    fn app() -> HedgeApp {
        let mut app = HedgeApp::headless(Persisted::default());
        let d = Design {
            width: 12,
            height: 12,
            seed: Some(5),
            ..app.design().clone()
        };
        crate::app::tests::edit(&mut app, d);
        settle(&mut app);
        app
    }

    fn passages(app: &HedgeApp) -> Vec<(Coord, Coord)> {
        app.generated().unwrap().maze.passage_coords()
    }

    #[test]
    fn a_wall_clicked_is_locked_as_it_stands_and_a_second_click_unlocks_it() {
        let mut app = app();
        let g = app.generated().unwrap();
        let grid = g.maze.grid();
        // the wall between (3,3) and its right neighbour, found from a point on it
        let (a, b) = (Coord::new(3, 3), Coord::new(3, 4));
        let open = g
            .maze
            .linked(grid.id_at(a).unwrap(), grid.id_at(b).unwrap());
        let t = grid.topology().tess();
        let (ca, cb) = (t.center(a), t.center(b));
        let mid = crate::topology::Point::new((ca.x + cb.x) / 2.0, (ca.y + cb.y) / 2.0 + 0.1);
        assert_eq!(app.wall_at_maze(mid), Some((a, b)));
        app.apply(Command::LockWall { a, b }, None);
        settle(&mut app);
        assert_eq!(app.design().walls().lock.get(a, b), Some(open));
        assert_eq!(app.undo_steps(), 2, "one undo step");
        // the overlay shows it, the page does not print it
        let p = app.preview().unwrap().1.clone();
        assert_eq!(p.overlays.hand.len(), 1);
        // one bar: a move and a line
        let crate::draw::Shape::Stroke { path, .. } = &p.overlays.hand[0].shape else {
            panic!("{:?}", p.overlays.hand[0])
        };
        assert_eq!(path.segs().count(), 2, "{path:?}");
        app.apply(Command::LockWall { a, b }, None);
        settle(&mut app);
        assert_eq!(app.design().walls().lock.get(a, b), None);
        app.apply(Command::Undo, None);
        settle(&mut app);
        assert_eq!(app.design().walls().lock.get(a, b), Some(open));
        // a weave maze takes no locks: a message, the design stays
        let mut woven = app.design().clone();
        let w = woven.walls_mut().unwrap();
        w.lock = crate::locks::Locks::NONE;
        w.weave = 0.5;
        crate::app::tests::edit(&mut app, woven.clone());
        settle(&mut app);
        app.apply(Command::LockWall { a, b }, None);
        assert_eq!(*app.design(), woven);
        assert!(matches!(&app.message, Some(Err(e)) if e.contains("weave")));
    }

    #[test]
    fn a_brushed_region_is_carved_again_and_the_rest_stays() {
        let mut app = app();
        let before = passages(&app);
        let region: Vec<Coord> = (4..8)
            .flat_map(|r| (4..8).map(move |c| Coord::new(r, c)))
            .collect();
        let inside = |c: &Coord| (4..8).contains(&c.row) && (4..8).contains(&c.col);
        app.apply(
            Command::Recarve {
                cells: region.clone(),
            },
            None,
        );
        settle(&mut app);
        let after = passages(&app);
        assert_ne!(before, after, "the region changed");
        let outside = |p: &[(Coord, Coord)]| -> Vec<(Coord, Coord)> {
            p.iter()
                .copied()
                .filter(|(a, b)| !inside(a) && !inside(b))
                .collect()
        };
        assert_eq!(outside(&before), outside(&after));
        assert!(app.generated().unwrap().maze.is_perfect());
        let w = app.design().walls();
        assert_eq!(w.recarve.len(), 1);
        assert_eq!(w.recarve[0].cells.len(), 16);
        // saved and read back, the command line's design makes the same maze
        let text = crate::io::design_to_toml(app.design());
        let again = crate::io::parse_design(&text).unwrap();
        let g = crate::pipeline::generate(&again, None).unwrap();
        assert_eq!(
            g.maze.passage_list(),
            app.generated().unwrap().maze.passage_list()
        );
        // one undo step takes it back
        app.apply(Command::Undo, None);
        settle(&mut app);
        assert_eq!(passages(&app), before);
        // "Clear hand work" forgets it, and so does a new shape (its cells are others)
        app.apply(Command::Redo, None);
        settle(&mut app);
        assert_eq!(app.design().walls().recarve.len(), 1);
        app.apply(Command::ClearHandWork, None);
        settle(&mut app);
        assert!(app.design().walls().recarve.is_empty());
        assert_eq!(passages(&app), before);
        app.apply(
            Command::Recarve {
                cells: region.clone(),
            },
            None,
        );
        app.apply(
            Command::SetShape(Some(crate::shape::ShapeSource::Builtin("heart".into()))),
            None,
        );
        settle(&mut app);
        assert!(app.design().walls().recarve.is_empty());
        assert!(app.design().walls().lock.is_empty());
    }

    /// A re-carve keeps START and FINISH where they were: with a placement rule ("auto") the
    /// new passages would move them, so the cells shown are pinned, in the same undo step.
    #[test]
    fn a_recarve_keeps_start_and_finish_where_they_were() {
        let mut app = app();
        assert_eq!(app.design().walls().placement, Placement::Auto);
        let ends = |app: &HedgeApp| {
            let g = app.generated().unwrap();
            let grid = g.maze.grid();
            (
                grid.coord(g.entrance.cell),
                g.entrance.side,
                grid.coord(g.exit.cell),
                g.exit.side,
            )
        };
        let before = ends(&app);
        // regions carved again until one would have moved START or FINISH under "auto"
        let mut moved = false;
        for k in 0..6u32 {
            let region: Vec<Coord> = (0..12)
                .flat_map(|r| (2 * k..2 * k + 3).map(move |c| Coord::new(r, c.min(11))))
                .collect();
            app.apply(Command::Recarve { cells: region }, None);
            settle(&mut app);
            assert_eq!(ends(&app), before, "region {k}");
            // said once, when the pin is made
            let said = matches!(&app.message, Some(Ok(m)) if m.contains("START and FINISH kept"));
            assert_eq!(said, k == 0, "region {k}: {:?}", app.message);
            let mut auto = app.design().clone();
            auto.walls_mut().unwrap().placement = Placement::Auto;
            let g = crate::pipeline::generate(&auto, None).unwrap();
            let grid = g.maze.grid();
            moved |= (grid.coord(g.entrance.cell), grid.coord(g.exit.cell)) != (before.0, before.2);
        }
        assert!(moved, "some re-carve would have moved them under auto");
        assert_eq!(
            app.design().walls().placement,
            Placement::Cells {
                entrance: before.0,
                exit: before.2
            }
        );
        // the pin came with the first re-carve: undoing them all gives "auto" back
        for _ in 0..6 {
            app.apply(Command::Undo, None);
        }
        settle(&mut app);
        assert_eq!(app.design().walls().placement, Placement::Auto);
        assert!(app.design().walls().recarve.is_empty());
    }
}
