//! The file form of a [`Design`]: the flat table every design file and maze JSON has held
//! since the first release, with the kind of maze named by `style` and the knobs of both kinds
//! side by side. A file is read into a [`Design`] (the other kind's knobs are left behind) and
//! written from one (the other kind's knobs at their defaults), so files stay byte-identical.

use serde::{Deserialize, Serialize};

use super::{CellEdit, Design, KeyUnder, Kind, OutlineStyle, Style, Tiles, Walls};
use crate::carve::{Algorithm, GrowingTreePolicy};
use crate::endpoints::Placement;
use crate::locks::{Locks, Recarve};
use crate::page::PageSetup;
use crate::shape::wand::Pick;
use crate::shape::{Islands, ShapeSource};
use crate::targets::Targets;
use crate::topology::TopologyKind;

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A design as files and JSON hold it: every knob side by side, the kind named by `style`.
/// Missing fields take their defaults, so older files keep loading.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FlatDesign {
    /// Walls between cells, or hex tiles.
    pub style: Style,
    /// The tile Mazer's order (tiles style): 0 one-tile corridors, 1 corridors never side by side.
    pub order: u32,
    /// rect, hex, polar or tri.
    pub topology: TopologyKind,
    /// Cells across (rings for polar).
    pub width: u32,
    /// Cells down (ignored for polar). A file without it has as many rows as it has cells
    /// across, as the command line's `--width` alone gives; one with a shape may have them
    /// fitted to the shape instead (`hedge generate --design`, [`crate::load::ReadDesign`]).
    /// Always written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    /// The carving algorithm.
    pub algorithm: Algorithm,
    /// Policy of the growing-tree carver.
    pub growing_tree: GrowingTreePolicy,
    /// Share of dead ends to remove, 0 (perfect maze) to 1 (none left).
    pub braid: f64,
    /// Density of weave crossings, 0 to 1 (rect and hex only; replaces the carver).
    pub weave: f64,
    /// How far each corridor's walls stand in from its cell's sides, as a share of the cell,
    /// 0 to [`MAX_INSET`] (rect and hex grids only). `None` (the default, left out of the file) is
    /// [`WEAVE_INSET`] for weave mazes, so a crossing reads as a bridge, and 0 (today's
    /// full-width corridors) for every other maze. See [`Design::inset_share`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inset: Option<f64>,
    /// How the answer key shows the solution where it passes under a weave bridge.
    #[serde(skip_serializing_if = "KeyUnder::is_default")]
    pub key_under: KeyUnder,
    /// Whether a puzzle page with weave crossings says "Passages can go under bridges".
    #[serde(skip_serializing_if = "is_true")]
    pub weave_legend: bool,
    /// The random seed; `None` draws one when the maze is made (and the output records it).
    pub seed: Option<u64>,
    /// Where the entrance and exit go.
    pub placement: Placement,
    /// How many entrances (1 to [`MAX_STARTS`]): with more than one, a "Which path?" puzzle,
    /// each entrance lettered A, B, C, D and only one joined to the finish (the maze is a
    /// forest, one tree per entrance: [`crate::forest`]). Left out of the file while it is 1.
    #[serde(skip_serializing_if = "is_one")]
    pub starts: u32,
    /// How many items to collect on the way ([`crate::items`]; 0, the default, left out of
    /// the file: none).
    #[serde(skip_serializing_if = "is_zero")]
    pub collect: u32,
    /// The items' pictures: theme picture names or SVG files (empty: the default item).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<String>,
    /// The picture the solution reveals ([`crate::reveal`]; left out of the file when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reveal: Option<ShapeSource>,
    /// The silhouette the maze fills; `None` for the whole grid.
    pub shape: Option<ShapeSource>,
    /// Share of a cell's area the shape must cover for the cell to be part of the maze, above 0
    /// and at most 1.
    pub coverage: f64,
    /// How different from the background (0 to 255: colour distance, or opacity for pictures
    /// with transparency) a pixel must be to count as shape; `None` picks it automatically.
    pub threshold: Option<u8>,
    /// Swap the shape and its background.
    pub invert: bool,
    /// How the shape is turned ([`super::Turn`]): `false` (upright, left out of the file),
    /// `true` (the shape alone, a quarter turn anticlockwise) or `"page"` (the whole page
    /// turned with the upright shape).
    #[serde(skip_serializing_if = "super::Turn::is_upright")]
    pub turn: super::Turn,
    /// What happens to parts of the shape not joined to its largest part; `None` (the default,
    /// left out of the file) lets the shape decide: its parts are joined when it is text (a
    /// text shape, or a picture that draws text) and the largest is kept otherwise. See
    /// [`Design::islands_policy`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub islands: Option<Islands>,
    /// How a shaped maze's outer wall is drawn: the shape's own outline or the cells'.
    #[serde(skip_serializing_if = "OutlineStyle::is_default")]
    pub outline: OutlineStyle,
    /// Cut a picture that looks like a photo anyway (`--force`); otherwise such a picture is
    /// refused with what to do ([`crate::shape::photo`]).
    #[serde(skip_serializing_if = "is_false")]
    pub photo: bool,
    /// The subject of a picture file picked with the wand (the `[pick]` table: points on the
    /// subject and the background, and a tolerance; [`crate::shape::wand`]); it replaces the
    /// threshold and invert cut, and a photo picked is not refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pick: Option<Pick>,
    /// How the maze is put on paper (PDF, SVG, PNG). Left out of the file while it is the
    /// default, so designs without a page setup read and write as before.
    #[serde(skip_serializing_if = "PageSetup::is_default")]
    pub page: PageSetup,
    /// Cells switched on or off by hand, in the order they were painted (a later edit of the
    /// same cell wins). A design file's edits must lie on its grid
    /// ([`Design::check_cell_edits`]); the editor may hold edits outside it after the grid
    /// shrinks (they come back if it grows), which the maze ignores and files leave out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cell_edits: Vec<CellEdit>,
    /// Walls locked open or closed by hand (walls only; left out while there are none).
    #[serde(skip_serializing_if = "Locks::is_empty")]
    pub lock: Locks,
    /// Regions carved again (walls only; left out while there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub recarve: Vec<Recarve>,
    /// Difficulty targets the search aims for (the `[targets]` table; none by default). The
    /// pipeline itself ignores them: the seed a search chose makes the same maze again.
    #[serde(skip_serializing_if = "Targets::is_empty")]
    pub targets: Targets,
}

impl Default for FlatDesign {
    fn default() -> Self {
        FlatDesign::from(Design::default())
    }
}

impl TryFrom<FlatDesign> for Design {
    type Error = crate::error::Error;

    /// The design a file holds. The other kind's knobs are left behind, but a value out of
    /// range is refused there too, as it always was (a walls file with `order = 2`, a tiles
    /// file with `braid = 5`), and so is hand work on a tiles design (locks and regions carved
    /// again, which only a maze of walls has); the design's own knobs are checked by
    /// [`Design::validate`].
    fn try_from(f: FlatDesign) -> crate::error::Result<Design> {
        let walls = Walls {
            topology: f.topology,
            algorithm: f.algorithm,
            growing_tree: f.growing_tree,
            braid: f.braid,
            weave: f.weave,
            inset: f.inset,
            key_under: f.key_under,
            weave_legend: f.weave_legend,
            placement: f.placement,
            starts: f.starts,
            collect: f.collect,
            items: f.items,
            item_art: None,
            reveal: f.reveal,
            reveal_file: None,
            lock: f.lock,
            recarve: f.recarve,
        };
        // the design's own kind is checked with the rest of it (Design::validate)
        let kind = match f.style {
            Style::Walls => {
                crate::tiles::check_order(f.order)?;
                Kind::Walls(walls)
            }
            Style::Tiles => {
                walls.check_ranges()?;
                if !walls.lock.is_empty() || !walls.recarve.is_empty() {
                    return Err(crate::error::Error::option(
                        "lock and recarve are hand work on a maze of walls; a tiles design \
                         (style = \"tiles\") has none: leave them out",
                    ));
                }
                Kind::Tiles(Tiles { order: f.order })
            }
        };
        Ok(Design {
            kind,
            width: f.width,
            height: f.height.unwrap_or(f.width),
            seed: f.seed,
            shape: f.shape,
            coverage: f.coverage,
            threshold: f.threshold,
            invert: f.invert,
            turn: f.turn,
            islands: f.islands,
            outline: f.outline,
            photo: f.photo,
            pick: f.pick,
            page: f.page,
            cell_edits: f.cell_edits,
            targets: f.targets,
        })
    }
}

impl From<Design> for FlatDesign {
    fn from(d: Design) -> FlatDesign {
        let w = d.walls().clone();
        FlatDesign {
            style: d.style(),
            order: d.tiles().order,
            topology: w.topology,
            width: d.width,
            height: Some(d.height),
            algorithm: w.algorithm,
            growing_tree: w.growing_tree,
            braid: w.braid,
            weave: w.weave,
            inset: w.inset,
            key_under: w.key_under,
            weave_legend: w.weave_legend,
            seed: d.seed,
            placement: w.placement,
            starts: w.starts,
            collect: w.collect,
            items: w.items,
            reveal: w.reveal,
            shape: d.shape,
            coverage: d.coverage,
            threshold: d.threshold,
            invert: d.invert,
            turn: d.turn,
            islands: d.islands,
            outline: d.outline,
            photo: d.photo,
            pick: d.pick,
            page: d.page,
            cell_edits: d.cell_edits,
            lock: w.lock,
            recarve: w.recarve,
            targets: d.targets,
        }
    }
}
