//! The JSON export: the maze graph for games and other tools (format `hedge-maze`, version 1).
//!
//! Written by streaming, without building the document in memory, so a 9-million-cell maze costs
//! no more than its own data. Floats are rounded to 6 decimals; everything is in a fixed order, so
//! the same design and seed always give the same bytes. docs/formats.md documents every field.

use std::io::Write;

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};

use crate::design::Design;
use crate::grid::Grid;
use crate::maze::Maze;
use crate::metrics::Metrics;
use crate::outline::Outline;
use crate::pipeline::Generated;
use crate::targets::{Report, Targets};

/// The `format` field's value.
pub const FORMAT: &str = "hedge-maze";
/// The `version` field's value.
pub const VERSION: u32 = 1;

fn round6(v: f64) -> f64 {
    let r = (v * 1e6).round() / 1e6;
    if r == 0.0 { 0.0 } else { r }
}

struct Cells<'a>(&'a Grid);

#[derive(Serialize)]
struct CellOut {
    id: u32,
    row: u32,
    col: u32,
    center: [f64; 2],
}

impl Serialize for Cells<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for id in self.0.cells() {
            let c = self.0.coord(id);
            let p = self.0.center(id);
            seq.serialize_element(&CellOut {
                id: id.0,
                row: c.row,
                col: c.col,
                center: [round6(p.x), round6(p.y)],
            })?;
        }
        seq.end()
    }
}

/// The cells of a maze drawn with the shape's outline: each with its `polygon`.
struct ClippedCells<'a>(&'a Grid, &'a Outline);

#[derive(Serialize)]
struct ClippedCellOut {
    id: u32,
    row: u32,
    col: u32,
    center: [f64; 2],
    polygon: Vec<Vec<[f64; 2]>>,
}

impl Serialize for ClippedCells<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (grid, o) = (self.0, self.1);
        let mut seq = s.serialize_seq(Some(grid.len()))?;
        for (id, parts) in grid.cells().zip(o.parts(grid)) {
            let c = grid.coord(id);
            let p = grid.center(id);
            let polygon = o
                .polygon(&parts)
                .iter()
                .map(|r| r.iter().map(|q| [round6(q.x), round6(q.y)]).collect())
                .collect();
            seq.serialize_element(&ClippedCellOut {
                id: id.0,
                row: c.row,
                col: c.col,
                center: [round6(p.x), round6(p.y)],
                polygon,
            })?;
        }
        seq.end()
    }
}

struct Passages<'a>(&'a Maze);

impl Serialize for Passages<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.0;
        let mut seq = s.serialize_seq(Some(m.passage_count()))?;
        // cells in id order, partners ascending: the same order as `Maze::passage_list`
        let mut partners = Vec::with_capacity(16);
        for a in m.grid().cells() {
            partners.clear();
            partners.extend(m.passages(a).filter(|&b| a < b));
            partners.sort_unstable();
            for &b in &partners {
                seq.serialize_element(&[a.0, b.0])?;
            }
        }
        seq.end()
    }
}

/// One item of a "collect the items" maze ([`crate::items`]): its cell (id, row, column), the
/// picture's name, whether it lies on the solution and, if so, its order there (1 first).
#[derive(Serialize)]
struct ItemOut<'a> {
    cell: u32,
    row: u32,
    col: u32,
    picture: &'a str,
    on_path: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    order: Option<u32>,
}

/// How the solution of a picture maze draws its picture ([`crate::reveal::Match`]).
#[derive(Serialize)]
struct RevealOut {
    picture: String,
    picture_cells: usize,
    path_cells: usize,
    inside: usize,
    iou: f64,
}

#[derive(Serialize)]
struct Opening {
    cell: u32,
    side: usize,
}

/// The `targets` entry: each targeted metric's value, range, whether it is met and how far off.
struct TargetsOut<'a>(&'a Targets, &'a Metrics);

#[derive(Serialize)]
struct TargetRow {
    value: f64,
    min: Option<f64>,
    max: Option<f64>,
    met: bool,
    off: f64,
}

impl Serialize for TargetsOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let report = Report::new(self.0, self.1);
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("met", &report.met())?;
        map.serialize_entry("distance", &round6(report.distance))?;
        for row in report.rows.iter() {
            let Some(t) = row.target else { continue };
            map.serialize_entry(
                row.metric.name(),
                &TargetRow {
                    value: round6(row.value),
                    min: t.min,
                    max: t.max,
                    met: row.met(),
                    off: round6(row.off),
                },
            )?;
        }
        map.end()
    }
}

struct Doc<'a>(&'a Generated);

impl Serialize for Doc<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.0;
        let d: &Design = &g.design;
        let metrics: &Metrics = &g.metrics;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("format", FORMAT)?;
        map.serialize_entry("version", &VERSION)?;
        map.serialize_entry("topology", &d.walls().topology)?;
        map.serialize_entry("width", &d.width)?;
        map.serialize_entry("height", &d.height)?;
        map.serialize_entry("algorithm", g.algorithm_used)?;
        map.serialize_entry("seed", &g.seed)?;
        map.serialize_entry("braid", &d.walls().braid)?;
        map.serialize_entry("braid_skipped", &g.braid_skipped)?;
        map.serialize_entry("weave", &d.walls().weave)?;
        map.serialize_entry("dropped_cells", &g.dropped_cells)?;
        map.serialize_entry("added_cells", &g.added_cells)?;
        if d.shape.is_some() {
            // how the outer wall is drawn: the shape's own outline (cells clipped) or the cells'
            let outline = if g.outline.is_some() {
                crate::outline::OutlineStyle::Shape
            } else {
                crate::outline::OutlineStyle::Cells
            };
            map.serialize_entry("outline", outline.name())?;
        }
        match &g.outline {
            Some(o) => map.serialize_entry("cells", &ClippedCells(g.maze.grid(), o))?,
            None => map.serialize_entry("cells", &Cells(g.maze.grid()))?,
        }
        map.serialize_entry("passages", &Passages(&g.maze))?;
        map.serialize_entry("tunnels", &g.maze.tunnels())?;
        map.serialize_entry("entrance", &g.entrance.cell)?;
        map.serialize_entry("exit", &g.exit.cell)?;
        if !g.starts.is_empty() {
            // a "Which path?" puzzle: every entrance, A first (`entrance` is the one that
            // reaches the exit)
            let starts: Vec<_> = g.starts.iter().map(|s| s.cell).collect();
            map.serialize_entry("starts", &starts)?;
        }
        let openings: Vec<Opening> = g
            .openings()
            .iter()
            .map(|e| Opening {
                cell: e.cell.0,
                side: e.side,
            })
            .collect();
        map.serialize_entry("openings", &openings)?;
        map.serialize_entry("solution", &g.solution)?;
        if !g.items.is_empty() {
            let names = crate::items::names(&d.walls().items);
            let items: Vec<ItemOut> = g
                .items
                .iter()
                .map(|it| {
                    let c = g.maze.grid().coord(it.cell);
                    ItemOut {
                        cell: it.cell.0,
                        row: c.row,
                        col: c.col,
                        picture: names.get(it.picture).copied().unwrap_or_default(),
                        on_path: it.on_path(),
                        order: it.order,
                    }
                })
                .collect();
            map.serialize_entry("items", &items)?;
        }
        if let (Some(r), Some(source)) = (&g.reveal, &d.walls().reveal) {
            let out = RevealOut {
                picture: source.to_string(),
                picture_cells: r.picture_cells,
                path_cells: r.path_cells,
                inside: r.inside,
                iou: (r.iou * 1e4).round() / 1e4,
            };
            map.serialize_entry("reveal", &out)?;
        }
        map.serialize_entry("metrics", metrics)?;
        if !d.targets.is_empty() {
            map.serialize_entry("targets", &TargetsOut(&d.targets, metrics))?;
        }
        map.serialize_entry("design", d)?;
        map.end()
    }
}

/// Writes `generated` as a `hedge-maze` JSON document (one line, then a newline) to `out`.
pub fn write(generated: &Generated, out: &mut dyn Write) -> std::io::Result<()> {
    let mut buf = std::io::BufWriter::with_capacity(1 << 16, out);
    serde_json::to_writer(&mut buf, &Doc(generated)).map_err(std::io::Error::other)?;
    buf.write_all(b"\n")?;
    buf.flush()
}

/// The JSON document as bytes.
pub fn to_vec(generated: &Generated) -> Vec<u8> {
    let mut v = Vec::new();
    write(generated, &mut v).expect("writing to memory does not fail");
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::{Kind, Walls};
    use crate::pipeline::generate;

    #[test]
    fn document_has_the_documented_fields_and_is_stable() {
        let d = Design {
            width: 6,
            height: 4,
            seed: Some(5),
            ..Design::default()
        };
        let g = generate(&d, None).unwrap();
        let bytes = to_vec(&g);
        assert_eq!(bytes, to_vec(&generate(&d, None).unwrap()));
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        for key in [
            "format",
            "version",
            "topology",
            "algorithm",
            "seed",
            "braid",
            "weave",
            "dropped_cells",
            "added_cells",
            "cells",
            "passages",
            "tunnels",
            "entrance",
            "exit",
            "solution",
            "metrics",
        ] {
            assert!(v.get(key).is_some(), "missing {key}");
        }
        assert_eq!(v["format"], "hedge-maze");
        assert_eq!(
            (&v["dropped_cells"], &v["added_cells"]),
            (&0.into(), &0.into())
        );
        assert_eq!(v["cells"].as_array().unwrap().len(), 24);
        assert_eq!(v["passages"].as_array().unwrap().len(), 23);
        assert_eq!(v["cells"][7]["row"], 1);
        assert_eq!(v["cells"][7]["col"], 1);
        assert_eq!(v["cells"][7]["center"][0], 1.5);
        let m = &v["metrics"];
        for key in [
            "cells",
            "passages",
            "dead_ends",
            "solution_length",
            "solution_ratio",
            "branching_factor",
            "dead_end_depths",
        ] {
            assert!(m.get(key).is_some(), "missing metrics.{key}");
        }
        let listed: Vec<(u32, u32)> = v["passages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_u64().unwrap() as u32, p[1].as_u64().unwrap() as u32))
            .collect();
        let expected: Vec<(u32, u32)> = g
            .maze
            .passage_list()
            .iter()
            .map(|(a, b)| (a.0, b.0))
            .collect();
        assert_eq!(listed, expected);
        assert!(v.get("targets").is_none());
    }

    /// The difficulty model's parts are in `metrics`, with the values the maze gives them: the
    /// loops counted from the document's own passages and cells, the solution from its path,
    /// and the effort and score recomputed from the parts by the documented formula.
    #[test]
    fn the_difficulty_models_parts_are_recorded() {
        use crate::metrics::{effort, score};
        for braid in [0.0, 0.5] {
            let d = Design {
                kind: Kind::Walls(Walls {
                    braid,
                    ..Walls::DEFAULT
                }),
                width: 12,
                height: 9,
                seed: Some(8),
                ..Design::default()
            };
            let g = generate(&d, None).unwrap();
            let v: serde_json::Value = serde_json::from_slice(&to_vec(&g)).unwrap();
            let m = &v["metrics"];
            let int = |k: &str| m[k].as_u64().unwrap_or_else(|| panic!("metrics.{k}"));
            let num = |k: &str| m[k].as_f64().unwrap_or_else(|| panic!("metrics.{k}"));
            let x = &g.metrics;
            assert_eq!(
                [
                    int("solution_length"),
                    int("turns"),
                    int("decision_points"),
                    int("branch_cost"),
                    int("loops")
                ],
                [
                    x.solution_length as u64,
                    x.turns as u64,
                    x.decision_points as u64,
                    x.branch_cost,
                    x.loops as u64
                ]
            );
            let (cells, passages) = (
                v["cells"].as_array().unwrap().len() as u64,
                v["passages"].as_array().unwrap().len() as u64,
            );
            assert_eq!(int("loops"), passages + 1 - cells, "braid {braid}");
            assert_eq!(braid > 0.0, int("loops") > 0, "braid {braid}");
            let path = v["solution"].as_array().unwrap().len() as u64;
            assert_eq!(int("solution_length"), path);
            assert!(int("turns") > 0 && int("turns") + 2 <= path);
            assert!(int("decision_points") > 0 && int("decision_points") <= path);
            assert!(int("branch_cost") > 0 && int("branch_cost") % 2 == 0);
            let e = effort(
                path as usize,
                int("turns") as usize,
                int("decision_points") as usize,
                int("branch_cost"),
                int("loops") as usize,
            );
            assert!((num("effort") - e).abs() < 1e-9, "{} {e}", num("effort"));
            assert!((num("difficulty") - score(e)).abs() < 1e-9);
        }
    }

    #[test]
    fn targets_are_recorded_with_whether_each_is_met() {
        let mut d = Design {
            width: 8,
            height: 8,
            seed: Some(3),
            ..Design::default()
        };
        let m = generate(&d, None).unwrap().metrics;
        d.targets = Targets {
            score: Some(crate::targets::Range::new(Some(m.difficulty + 5.0), None)),
            dead_ends: Some(crate::targets::Range::new(None, Some(m.dead_ends as f64))),
            ..Targets::NONE
        };
        let g = generate(&d, None).unwrap();
        let bytes = to_vec(&g);
        assert_eq!(bytes, to_vec(&generate(&d, None).unwrap()));
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let t = &v["targets"];
        assert_eq!(t["met"], false);
        assert_eq!(t["score"]["met"], false);
        assert!((t["score"]["off"].as_f64().unwrap() + 5.0).abs() < 1e-5);
        assert_eq!(t["dead-ends"]["met"], true);
        assert_eq!(t["dead-ends"]["off"], 0.0);
        assert!(t.get("ratio").is_none());
        // the design records the targets as ranges
        assert_eq!(
            v["design"]["targets"]["dead_ends"],
            format!("..{}", m.dead_ends)
        );
    }
}
