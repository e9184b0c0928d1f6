//! The design: every knob and the seed, as one serde value. It is what the editor saves, what the
//! CLI reads with `--design`, and all that is needed to make the same maze again.

use serde::{Deserialize, Serialize};

pub mod flat;
mod turn;

pub use turn::Turn;

use crate::carve::{Algorithm, GrowingTreePolicy};
use crate::endpoints::Placement;
use crate::error::{Error, Result};
use crate::locks::{Locks, Recarve};
use crate::page::PageSetup;
use crate::shape::wand::Pick;
use crate::shape::{Islands, ShapeSource};
use crate::targets::Targets;
use crate::topology::{Coord, Topology, TopologyKind};

/// One cell switched on or off by hand (the editor's mask brush), applied over the shape's mask
/// (or the full grid when there is no shape).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellEdit {
    /// The cell's row (ring for polar).
    pub row: u32,
    /// The cell's column (index in the ring for polar).
    pub col: u32,
    /// Whether the cell is switched on.
    pub on: bool,
}

impl CellEdit {
    /// The cell edited.
    pub fn coord(&self) -> Coord {
        Coord::new(self.row, self.col)
    }
}

/// The largest seed (2^53 - 1): it survives TOML (64-bit signed) and JSON readers that use
/// doubles.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// What kind of maze: walls between cells, or open and closed hex tiles. Its names (files,
/// command line) are the kebab-case variant names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, strum::EnumString)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Style {
    /// Cells separated by walls (every topology and carver).
    #[default]
    Walls,
    /// Hex tiles, each open floor or wall ([`crate::tiles`]); uses width, height, order, seed.
    Tiles,
}

/// The largest inset (share of the cell on each side of a corridor): corridors 40 % of the cell.
pub const MAX_INSET: f64 = 0.3;
/// The inset weave mazes are drawn with unless the design says otherwise (corridors 70 % of the
/// cell, as in maltaisn/mazegen's `INSET_SIZE_RATIO`).
pub const WEAVE_INSET: f64 = 0.15;

/// How the answer key shows the solution under a weave bridge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyUnder {
    /// The line stops at the bridge and goes on beyond it, as if drawn beneath the bridge.
    #[default]
    Hidden,
    /// A dashed line across the bridge, through the tunnel (for young solvers).
    Dashed,
}

impl KeyUnder {
    /// Whether this is the default ([`KeyUnder::Hidden`]).
    pub fn is_default(&self) -> bool {
        *self == KeyUnder::Hidden
    }
}

impl std::str::FromStr for KeyUnder {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "hidden" => Ok(KeyUnder::Hidden),
            "dashed" => Ok(KeyUnder::Dashed),
            _ => Err(Error::option(format!(
                "unknown key-under '{s}' (use hidden or dashed)"
            ))),
        }
    }
}

/// The most entrances a "Which path?" puzzle has ([`Design::starts`]).
pub const MAX_STARTS: u32 = 4;

/// The knobs of a maze of walls between cells ([`Kind::Walls`]): the grid's topology, how it
/// is carved, braided and woven, where its entrances go, and the hand work on the carved maze.
#[derive(Clone, Debug, PartialEq)]
pub struct Walls {
    /// rect, hex, polar or tri.
    pub topology: TopologyKind,
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
    pub inset: Option<f64>,
    /// How the answer key shows the solution where it passes under a weave bridge.
    pub key_under: KeyUnder,
    /// Whether a puzzle page with weave crossings says "Passages can go under bridges".
    pub weave_legend: bool,
    /// Where the entrance and exit go.
    pub placement: Placement,
    /// How many entrances (1 to [`MAX_STARTS`]): with more than one, a "Which path?" puzzle,
    /// each entrance lettered A, B, C, D and only one joined to the finish (the maze is a
    /// forest, one tree per entrance: [`crate::forest`]). Left out of the file while it is 1.
    pub starts: u32,
    /// How many items to collect on the way from START to FINISH ([`crate::items`]): that
    /// many on the solution, spread along it in order, and as many decoys at the far ends of
    /// dead ends. 0 (the default, left out of the file): none.
    pub collect: u32,
    /// The items' pictures, used in turn: theme picture names (`apple`, `carrot`, ...) or SVG
    /// files. Empty: [`crate::items::DEFAULT_ITEM`].
    pub items: Vec<String>,
    /// The items' pictures as read from `items` when it names a file of its own
    /// ([`crate::load::item_pictures`]: the command line, a book and the editor read them
    /// through their loaders); the drawing uses these, one for each name in order. Not kept
    /// in files: the names are. `None`: built-in pictures only, drawn by name.
    pub item_art: Option<std::sync::Arc<[crate::picture::Art]>>,
    /// A picture revealed by the path ([`crate::reveal`]): a built-in shape, a picture file
    /// or a text, fitted to the maze's grid as a shape is; the solution is built through its
    /// cells, and the answer key shades it. `None` (the default, left out of the file): none.
    pub reveal: Option<ShapeSource>,
    /// The bytes of the picture file `reveal` names, as read through a loader (a book's, the
    /// editor's: [`crate::load::read_reveal_file`]), so that a design prepared without a
    /// loader reveals it. Not kept in files: the path is. `None`: not read (a built-in or a
    /// text needs nothing read).
    pub reveal_file: Option<std::sync::Arc<[u8]>>,
    /// Walls locked open or closed by hand ([`crate::locks`]; the `lock` table).
    pub lock: Locks,
    /// Regions carved again, each from a seed of its own, in order ([`crate::locks::recarve`];
    /// the `[[recarve]]` tables).
    pub recarve: Vec<Recarve>,
}

impl Walls {
    /// The knobs of a new design (and what a tiles design reads for them: [`Design::walls`]).
    pub const DEFAULT: Walls = Walls {
        topology: TopologyKind::Rect,
        algorithm: Algorithm::Backtracker,
        growing_tree: GrowingTreePolicy::Random,
        braid: 0.0,
        weave: 0.0,
        inset: None,
        key_under: KeyUnder::Hidden,
        weave_legend: true,
        placement: Placement::Auto,
        starts: 1,
        collect: 0,
        items: Vec::new(),
        item_art: None,
        reveal: None,
        reveal_file: None,
        lock: Locks::NONE,
        recarve: Vec::new(),
    };
}

/// What a tiles design reads for the walls knobs ([`Design::walls`]).
static DEFAULT_WALLS: Walls = Walls::DEFAULT;

impl Walls {
    /// The inset the maze is drawn with, as a share of the cell: the knobs' own, else
    /// [`WEAVE_INSET`] for a weave maze on a rect or hex grid, else 0 (full-width corridors).
    pub fn inset_share(&self) -> f64 {
        let rect = crate::weave::weaves(self.topology);
        match self.inset {
            Some(i) if rect => i.clamp(0.0, MAX_INSET),
            None if rect && self.weave > 0.0 => WEAVE_INSET,
            _ => 0.0,
        }
    }
}

impl Walls {
    /// Checks the knobs that are shares or counts in a range: braid, weave, inset, the growing
    /// tree's newest share. (A tiles file's walls knobs are held to them too, as they always
    /// were, though the tiles leave them behind: [`flat::FlatDesign`].)
    pub fn check_ranges(&self) -> Result<()> {
        let unit = |name: &str, v: f64| {
            if (0.0..=1.0).contains(&v) {
                Ok(())
            } else {
                Err(Error::option(format!(
                    "{name} must be between 0 and 1, got {}",
                    crate::error::num(v)
                )))
            }
        };
        unit("braid", self.braid)?;
        unit("weave", self.weave)?;
        if let Some(i) = self.inset
            && !(0.0..=MAX_INSET).contains(&i)
        {
            return Err(Error::option(format!(
                "inset must be between 0 and {MAX_INSET} of the cell, got {}",
                crate::error::num(i)
            )));
        }
        if let GrowingTreePolicy::Mixed(p) = self.growing_tree {
            unit("the growing-tree newest share", p)?;
        }
        Ok(())
    }
}

impl Walls {
    /// Takes the relative paths of the item pictures of its own (`items`:
    /// [`crate::items::is_file`]) and of its picture file to reveal relative to `base`, the
    /// folder of the file that names them.
    pub fn resolve_items(&mut self, base: &std::path::Path) {
        if let Some(ShapeSource::File(p)) = &mut self.reveal
            && p.is_relative()
        {
            *p = base.join(&*p);
        }
        for name in self.items.iter_mut().filter(|n| crate::items::is_file(n)) {
            if std::path::Path::new(name.as_str()).is_relative() {
                *name = base.join(&*name).to_string_lossy().into_owned();
            }
        }
    }
}

impl Default for Walls {
    fn default() -> Self {
        Walls::DEFAULT
    }
}

/// The knobs of a hex tile maze ([`Kind::Tiles`], [`crate::tiles`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tiles {
    /// The tile Mazer's order: 0 one-tile corridors, 1 corridors never side by side.
    pub order: u32,
}

impl Tiles {
    /// The knobs of a new tiles design (and what a walls design reads for them).
    pub const DEFAULT: Tiles = Tiles { order: 0 };
}

/// What kind of maze a design makes, with the knobs only that kind has. A file names it with
/// `style = "walls"` or `style = "tiles"` beside the knobs ([`flat::FlatDesign`]).
// the walls variant is the common one; boxing it would cost every knob a dereference
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// Cells separated by walls (every topology and carver).
    Walls(Walls),
    /// Hex tiles, each open floor or wall ([`crate::tiles`]).
    Tiles(Tiles),
}

impl Default for Kind {
    fn default() -> Self {
        Kind::Walls(Walls::DEFAULT)
    }
}

impl Kind {
    /// The kind's name ([`Style`]).
    pub fn style(&self) -> Style {
        match self {
            Kind::Walls(_) => Style::Walls,
            Kind::Tiles(_) => Style::Tiles,
        }
    }
}

/// Every knob of a maze: those every maze has, and the kind of maze with its own knobs. Missing
/// fields take their defaults, so older files keep loading; a file keeps the flat form it has
/// always had ([`flat::FlatDesign`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "flat::FlatDesign", into = "flat::FlatDesign")]
pub struct Design {
    /// Walls between cells, or hex tiles, with the knobs of that kind.
    pub kind: Kind,
    /// Cells across (rings for polar).
    pub width: u32,
    /// Cells down (ignored for polar).
    pub height: u32,
    /// The random seed; `None` draws one when the maze is made (and the output records it).
    pub seed: Option<u64>,
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
    /// How the shape is turned on its page ([`Turn`]): upright (the default), turned alone
    /// (`true`, only when asked), or upright on a page turned with it (`"page"`: a wide animal
    /// on a portrait book's page, as a landscape puzzle). A book sets `"page"` on a
    /// generator's page when the upright shape would print much smaller.
    pub turn: Turn,
    /// What happens to parts of the shape not joined to its largest part; `None` (the default,
    /// left out of the file) lets the shape decide: its parts are joined when it is text (a
    /// text shape, or a picture that draws text) and the largest is kept otherwise. See
    /// [`Design::islands_policy`].
    pub islands: Option<Islands>,
    /// How a shaped maze's outer wall is drawn: the shape's own outline or the cells'.
    pub outline: OutlineStyle,
    /// Cut a picture that looks like a photo anyway (`--force`); otherwise such a picture is
    /// refused with what to do ([`crate::shape::photo`]).
    pub photo: bool,
    /// The subject of a picture file picked with the wand (the `[pick]` table: points on the
    /// subject and the background, and a tolerance; [`crate::shape::wand`]); it replaces the
    /// threshold and invert cut, and a photo picked is not refused.
    pub pick: Option<Pick>,
    /// How the maze is put on paper (PDF, SVG, PNG). Left out of the file while it is the
    /// default, so designs without a page setup read and write as before.
    pub page: PageSetup,
    /// Cells switched on or off by hand, in the order they were painted (a later edit of the
    /// same cell wins). A design file's edits must lie on its grid
    /// ([`Design::check_cell_edits`]); the editor may hold edits outside it after the grid
    /// shrinks (they come back if it grows), which the maze ignores and files leave out.
    pub cell_edits: Vec<CellEdit>,
    /// Difficulty targets the search aims for (the `[targets]` table; none by default). The
    /// pipeline itself ignores them: the seed a search chose makes the same maze again.
    pub targets: Targets,
}

impl Default for Design {
    fn default() -> Self {
        Design {
            kind: Kind::default(),
            width: 20,
            height: 20,
            seed: None,
            shape: None,
            coverage: 0.5,
            threshold: None,
            invert: false,
            turn: Turn::Upright,
            islands: None,
            outline: OutlineStyle::Shape,
            photo: false,
            pick: None,
            page: PageSetup::default(),
            cell_edits: Vec::new(),
            targets: Targets::NONE,
        }
    }
}

impl Design {
    /// Walls or tiles.
    pub fn style(&self) -> Style {
        self.kind.style()
    }

    /// The walls knobs: the design's own for a maze of walls, [`Walls::DEFAULT`] for tiles
    /// (which have no braid, weave or carver; their grid is [`Design::grid_topology`]).
    pub fn walls(&self) -> &Walls {
        match &self.kind {
            Kind::Walls(w) => w,
            Kind::Tiles(_) => &DEFAULT_WALLS,
        }
    }

    /// Calls `f` on the path of every picture file the design names, as written: its shape's
    /// picture, its start and finish pictures, its picture to reveal and its item pictures of
    /// its own
    /// ([`crate::items::is_file`]), in that order. `f` may change a path in place (a book
    /// takes them relative to the file that names them, its manifest relative to the book).
    /// An item name is text: a path changed to one that is not UTF-8 is kept lossily.
    pub fn picture_files(
        &mut self,
        f: &mut dyn FnMut(&mut std::path::PathBuf) -> Result<()>,
    ) -> Result<()> {
        if let Some(ShapeSource::File(p)) = &mut self.shape {
            f(p)?;
        }
        for p in [&mut self.page.start_picture, &mut self.page.finish_picture]
            .into_iter()
            .flatten()
        {
            f(p)?;
        }
        if let Kind::Walls(w) = &mut self.kind {
            if let Some(ShapeSource::File(p)) = &mut w.reveal {
                f(p)?;
            }
            for name in w.items.iter_mut().filter(|n| crate::items::is_file(n)) {
                let mut p = std::path::PathBuf::from(&*name);
                f(&mut p)?;
                *name = p.to_string_lossy().into_owned();
            }
        }
        Ok(())
    }

    /// The walls knobs to change, for a maze of walls (`None` for tiles).
    pub fn walls_mut(&mut self) -> Option<&mut Walls> {
        match &mut self.kind {
            Kind::Walls(w) => Some(w),
            Kind::Tiles(_) => None,
        }
    }

    /// The tiles knobs: the design's own for tiles, [`Tiles::DEFAULT`] for a maze of walls.
    pub fn tiles(&self) -> &Tiles {
        match &self.kind {
            Kind::Tiles(t) => t,
            Kind::Walls(_) => &Tiles::DEFAULT,
        }
    }

    /// The design as a maze of walls with these knobs.
    pub fn with_walls(self, walls: Walls) -> Design {
        Design {
            kind: Kind::Walls(walls),
            ..self
        }
    }

    /// The design made `style`: unchanged when it is already, else with the new kind's
    /// default knobs (the editor keeps the other kind's knobs itself while the user switches).
    pub fn set_style(&mut self, style: Style) {
        if self.style() != style {
            self.kind = match style {
                Style::Walls => Kind::Walls(Walls::DEFAULT),
                Style::Tiles => Kind::Tiles(Tiles::DEFAULT),
            };
        }
    }

    /// The topology the maze is built on: the design's own for walls, hex for tiles (the tiles
    /// have the hex topology's geometry, so a shape is fitted onto them as onto a hex grid; see
    /// [`crate::tiles::region`]).
    pub fn grid_topology(&self) -> TopologyKind {
        match &self.kind {
            Kind::Walls(w) => w.topology,
            Kind::Tiles(_) => TopologyKind::Hex,
        }
    }

    /// Whether `self` and `other` make the same maze (they may differ in page setup only). The
    /// inset, the key under bridges and the weave legend count as differences: they are read
    /// from the made maze's own design when it is drawn.
    pub fn same_maze(&self, other: &Design) -> bool {
        Design {
            page: PageSetup::default(),
            ..self.clone()
        } == Design {
            page: PageSetup::default(),
            ..other.clone()
        }
    }

    /// The first hand edit that lies outside the design's grid, if any.
    pub fn cell_edit_outside(&self) -> Option<CellEdit> {
        if self.cell_edits.is_empty() {
            return None;
        }
        let Ok(topology) = Topology::new(self.grid_topology(), self.width, self.height) else {
            return None;
        };
        let t = topology.tess();
        self.cell_edits
            .iter()
            .copied()
            .find(|e| e.row >= t.rows() || e.col >= t.cols(e.row))
    }

    /// Checks that every hand edit lies on the design's grid (a design file's must).
    pub fn check_cell_edits(&self) -> Result<()> {
        match self.cell_edit_outside() {
            None => Ok(()),
            Some(e) => Err(Error::option(format!(
                "cell_edits: the cell at row {}, column {} is outside the {} grid",
                e.row,
                e.col,
                self.grid_topology().size_label(self.width, self.height)
            ))),
        }
    }

    /// The design with the hand edits outside its grid left out (what a file records).
    pub fn without_edits_outside(&self) -> std::borrow::Cow<'_, Design> {
        if self.cell_edit_outside().is_none() {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut d = self.clone();
        let Ok(topology) = Topology::new(d.grid_topology(), d.width, d.height) else {
            return std::borrow::Cow::Borrowed(self);
        };
        let t = topology.tess();
        d.cell_edits
            .retain(|e| e.row < t.rows() && e.col < t.cols(e.row));
        std::borrow::Cow::Owned(d)
    }

    /// The inset the maze is drawn with, as a share of the cell: the design's own, else
    /// [`WEAVE_INSET`] for a weave maze on a rect or hex grid, else 0 (full-width corridors).
    pub fn inset_share(&self) -> f64 {
        match &self.kind {
            Kind::Walls(w) => w.inset_share(),
            Kind::Tiles(_) => 0.0,
        }
    }

    /// What happens to the shape's separate parts, for a picture that draws text (`text`: an
    /// SVG with text in it, [`crate::shape::Picture::has_text`]) or not. The letters of a text
    /// shape are always joined (keeping one letter of a name makes no maze of it); otherwise
    /// the design's own policy when it has one, else the letters of a picture of text are
    /// joined too and any other picture keeps its largest part.
    pub fn islands_policy(&self, text: bool) -> Islands {
        match (&self.shape, self.islands) {
            (Some(s), _) if s.is_text() => Islands::Bridge,
            (_, Some(policy)) => policy,
            (_, None) if text => Islands::Bridge,
            (_, None) => Islands::KeepLargest,
        }
    }

    /// Checks the number of entrances ([`Design::starts`]): 1 to [`MAX_STARTS`], and more than
    /// one only where the trees can be kept apart: a maze of walls with no weave (its tunnels
    /// would join trees under a bridge) and no braid (its loops would join them).
    pub fn check_starts(&self) -> Result<()> {
        let w = self.walls();
        if !(1..=MAX_STARTS).contains(&w.starts) {
            return Err(Error::option(format!(
                "starts must be 1 to {MAX_STARTS}, got {}",
                w.starts
            )));
        }
        if w.starts == 1 {
            return Ok(());
        }
        let clash = if w.weave > 0.0 {
            Some("weave (its bridges would join the paths)")
        } else if w.braid > 0.0 {
            Some("braid (its loops would join the paths; use braid 0)")
        } else if w.placement != Placement::Auto {
            Some("a chosen entrance (the entrances are spread round the outline; use auto)")
        } else {
            None
        };
        match clash {
            Some(what) => Err(Error::option(format!(
                "starts {} (a \"Which path?\" puzzle) does not work with {what}",
                w.starts
            ))),
            None => Ok(()),
        }
    }

    /// Checks the knobs that can be checked without building anything.
    pub fn validate(&self) -> Result<()> {
        if let Some(seed) = self.seed
            && seed > MAX_SEED
        {
            return Err(Error::option(format!(
                "seed must be at most {MAX_SEED}, got {seed}"
            )));
        }
        match &self.kind {
            Kind::Walls(w) => {
                w.check_ranges()?;
                if w.weave > 0.0 {
                    // weave replaces the carver, so only the weave's own limits apply
                    crate::weave::check(w.topology)?;
                } else {
                    w.algorithm.check(w.topology)?;
                }
                self.check_starts()?;
                crate::items::check(w.collect, &w.items, w.weave > 0.0, w.braid > 0.0, w.starts)?;
                if w.reveal.is_some() {
                    crate::reveal::check(crate::reveal::Knobs {
                        weave: w.weave > 0.0,
                        braid: w.braid > 0.0,
                        starts: w.starts,
                        placed: w.placement != Placement::Auto,
                        hand: !w.lock.is_empty() || !w.recarve.is_empty(),
                    })?;
                }
                w.lock.check()?;
                crate::locks::check_recarves(&w.recarve, MAX_SEED)?;
                let hand = !w.lock.is_empty() || !w.recarve.is_empty();
                if hand && w.weave > 0.0 {
                    return Err(Error::option(
                        "locked walls and re-carved regions do not work with weave (its \
                         bridges): set weave to 0",
                    ));
                }
                if hand && w.starts > 1 {
                    return Err(Error::option(
                        "locked walls and re-carved regions do not work with a \"Which path?\" \
                         puzzle (starts above 1)",
                    ));
                }
            }
            Kind::Tiles(t) => crate::tiles::check_order(t.order)?,
        }
        if !(self.coverage > 0.0 && self.coverage <= 1.0) {
            return Err(Error::option(format!(
                "coverage must be above 0 and at most 1, got {}",
                crate::error::num(self.coverage)
            )));
        }
        self.targets.validate()?;
        if let Some(pick) = &self.pick {
            pick.check()?;
            if !matches!(self.shape, Some(ShapeSource::File(_))) {
                return Err(Error::option(
                    "pick: the subject is picked from a picture file; give [shape] file = \"PATH\"",
                ));
            }
        }
        if let Some(shape) = &self.shape {
            shape.check()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::targets::Targets;

    #[test]
    fn a_design_holds_its_kinds_knobs_and_files_keep_their_flat_form() {
        // a tiles file an older editor saved after switching from walls: the walls knobs
        // there are left behind, and written back as their defaults
        let old = "style = \"tiles\"\norder = 1\ntopology = \"polar\"\nalgorithm = \"kruskal\"\nbraid = 0.4\nstarts = 3\n";
        let d = crate::io::parse_design(old).unwrap();
        assert_eq!(d.kind, Kind::Tiles(Tiles { order: 1 }));
        assert_eq!(d.grid_topology(), TopologyKind::Hex);
        assert_eq!(d.walls(), &Walls::DEFAULT);
        d.validate().unwrap();
        let text = crate::io::design_to_toml(&d);
        assert!(
            text.contains("style = \"tiles\"") && text.contains("order = 1"),
            "{text}"
        );
        assert!(
            text.contains("topology = \"rect\"") && text.contains("braid = 0.0"),
            "{text}"
        );
        assert_eq!(crate::io::parse_design(&text).unwrap(), d);
        // a walls file: its knobs, no order; the file it writes reads back the same
        let walls = crate::io::parse_design(
            "topology = \"hex\"\nalgorithm = \"prim\"\nbraid = 0.25\nweave = 0.0\norder = 0\n",
        )
        .unwrap();
        let Kind::Walls(w) = &walls.kind else {
            panic!("walls by default")
        };
        assert_eq!(
            (w.topology, w.algorithm, w.braid),
            (TopologyKind::Hex, Algorithm::Prim, 0.25)
        );
        let text = crate::io::design_to_toml(&walls);
        assert_eq!(crate::io::parse_design(&text).unwrap(), walls);
        assert_eq!(
            crate::io::design_to_toml(&crate::io::parse_design(&text).unwrap()),
            text
        );
        // the same knobs as a flat file always had, in the same order
        let flat: Vec<&str> = text.lines().map(|l| l.split(' ').next().unwrap()).collect();
        assert_eq!(
            flat[..6],
            ["style", "order", "topology", "width", "height", "algorithm"],
            "{text}"
        );
        // switching style gives the new kind's defaults; the same style keeps its knobs
        let mut s = walls.clone();
        s.set_style(Style::Walls);
        assert_eq!(s, walls);
        s.set_style(Style::Tiles);
        assert_eq!(s.kind, Kind::Tiles(Tiles::DEFAULT));
        assert!(s.walls_mut().is_none());
        // a tiles design is checked for its own knob only
        let bad = crate::io::parse_design("style = \"tiles\"\norder = 7\n").unwrap();
        assert!(bad.validate().is_err());
    }

    #[test]
    fn targets_round_trip_through_toml_in_the_design() {
        let d = Design {
            targets: Targets {
                score: "60..80".parse().ok(),
                dead_ends: "..40".parse().ok(),
                ..Targets::NONE
            },
            ..Design::default()
        };
        let text = crate::io::design_to_toml(&d);
        assert!(text.contains("[targets]"), "{text}");
        assert!(text.contains("score = \"60..80\""), "{text}");
        assert_eq!(crate::io::parse_design(&text).unwrap(), d);
        // no targets: no table, and files without one still load
        let plain = crate::io::design_to_toml(&Design::default());
        assert!(!plain.contains("targets"), "{plain}");
        let e = crate::io::parse_design("[targets]\nscore = \"9..3\"\n").unwrap_err();
        assert!(e.message.contains("empty"), "{e}");
        let e = crate::io::parse_design("[targets]\nlength = \"1..\"\n").unwrap_err();
        assert!(e.message.contains("unknown field"), "{e}");
        let bad = Design {
            targets: Targets {
                ratio: "0.5..2".parse().ok(),
                ..Targets::NONE
            },
            ..Design::default()
        };
        assert!(bad.validate().unwrap_err().message.contains("ratio"));
    }

    #[test]
    fn starts_round_trip_through_the_design_file_and_old_files_have_one() {
        // a file without starts (every file saved before them): one entrance
        assert_eq!(
            crate::io::parse_design("width = 9\n")
                .unwrap()
                .walls()
                .starts,
            1
        );
        let plain = crate::io::design_to_toml(&Design::default());
        assert!(!plain.contains("starts"), "{plain}");
        let d = Design {
            kind: Kind::Walls(Walls {
                starts: 3,
                ..Walls::DEFAULT
            }),
            ..Design::default()
        };
        let text = crate::io::design_to_toml(&d);
        assert!(text.contains("starts = 3"), "{text}");
        assert_eq!(crate::io::parse_design(&text).unwrap(), d);
        // a bad count is refused when the design is checked, in one line
        let e = crate::io::parse_design("starts = 7\n")
            .unwrap()
            .validate()
            .unwrap_err();
        assert_eq!(e.message, "starts must be 1 to 4, got 7");
    }

    #[test]
    fn collect_and_items_round_trip_and_are_left_out_without_them() {
        let plain = crate::io::design_to_toml(&Design::default());
        assert!(
            !plain.contains("collect") && !plain.contains("items"),
            "{plain}"
        );
        let d = crate::io::parse_design("collect = 3\nitems = [\"apple\", \"star\"]\n").unwrap();
        assert_eq!(d.walls().collect, 3);
        assert_eq!(d.walls().items, ["apple", "star"]);
        d.validate().unwrap();
        let text = crate::io::design_to_toml(&d);
        assert!(text.contains("collect = 3"), "{text}");
        assert_eq!(crate::io::parse_design(&text).unwrap(), d);
        // checked with the design, one line each
        for (file, want) in [
            (
                "collect = 3\nitems = [\"dragon\"]\n",
                "unknown item 'dragon'",
            ),
            ("collect = 3\nbraid = 0.5\n", "set braid to 0"),
            (
                "collect = 3\nweave = 0.5\n",
                "collect does not work with weave",
            ),
            ("collect = 3\nstarts = 2\n", "which path"),
        ] {
            let e = crate::io::parse_design(file)
                .unwrap()
                .validate()
                .unwrap_err();
            assert!(e.message.contains(want), "{file:?}: {e}");
        }
    }

    #[test]
    fn reveal_round_trips_and_is_left_out_without_it() {
        let plain = crate::io::design_to_toml(&Design::default());
        assert!(!plain.contains("reveal"), "{plain}");
        for file in [
            "[reveal]\nbuiltin = \"heart\"\n",
            "[reveal]\ntext = \"Hi\"\n",
            "[reveal]\nfile = \"cat.png\"\n",
        ] {
            let d = crate::io::parse_design(file).unwrap();
            assert!(d.walls().reveal.is_some(), "{file}");
            d.validate().unwrap();
            let text = crate::io::design_to_toml(&d);
            assert!(text.contains("[reveal]"), "{text}");
            assert_eq!(crate::io::parse_design(&text).unwrap(), d);
        }
        let e = crate::io::parse_design("braid = 0.2\n[reveal]\nbuiltin = \"heart\"\n")
            .unwrap()
            .validate()
            .unwrap_err();
        assert!(
            e.message.starts_with("reveal does not work with braid"),
            "{e}"
        );
    }

    #[test]
    fn the_page_orientation_round_trips_and_defaults_to_auto() {
        use crate::page::{Orientation, PageSetup};
        // a file saved before auto existed, with a page but no orientation: auto
        let old = crate::io::parse_design("[page]\ntitle = \"Owl\"\n").unwrap();
        assert_eq!(old.page.orientation, Orientation::Auto);
        assert_eq!(Design::default().page.orientation, Orientation::Auto);
        for orientation in [
            Orientation::Auto,
            Orientation::Portrait,
            Orientation::Landscape,
        ] {
            let d = Design {
                page: PageSetup {
                    orientation,
                    title: Some("Owl".into()),
                    ..PageSetup::default()
                },
                ..Design::default()
            };
            let text = crate::io::design_to_toml(&d);
            assert!(
                text.contains(&format!("orientation = \"{orientation}\"")),
                "{text}"
            );
            assert_eq!(crate::io::parse_design(&text).unwrap(), d);
        }
    }

    #[test]
    fn the_islands_policy_joins_text_unless_the_design_says_otherwise() {
        let file = Design {
            shape: Some(ShapeSource::File("logo.svg".into())),
            ..Design::default()
        };
        // left to the shape: a picture of text is joined, any other keeps its largest part
        assert_eq!(file.islands, None);
        assert_eq!(file.islands_policy(true), Islands::Bridge);
        assert_eq!(file.islands_policy(false), Islands::KeepLargest);
        // the design's own policy wins
        for policy in [Islands::KeepLargest, Islands::Bridge] {
            let d = Design {
                islands: Some(policy),
                ..file.clone()
            };
            assert_eq!(d.islands_policy(true), policy);
            assert_eq!(d.islands_policy(false), policy);
        }
        // a text shape's letters are always joined
        let name = Design {
            shape: Some(ShapeSource::Text {
                text: "EMMA".into(),
                font: Default::default(),
            }),
            islands: Some(Islands::KeepLargest),
            ..Design::default()
        };
        assert_eq!(name.islands_policy(false), Islands::Bridge);
        // files: left out while it is the shape's choice, read back as written
        let text = crate::io::design_to_toml(&file);
        assert!(!text.contains("islands"), "{text}");
        let kept = crate::io::parse_design("islands = \"keep-largest\"\n").unwrap();
        assert_eq!(kept.islands, Some(Islands::KeepLargest));
        let d = Design {
            islands: Some(Islands::Bridge),
            ..file
        };
        assert_eq!(
            crate::io::parse_design(&crate::io::design_to_toml(&d)).unwrap(),
            d
        );
    }
}

/// How a shaped maze's outer wall is drawn. Its names (files, command line) are `shape` and
/// `cells`.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::Display,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case", parse_err_ty = Error, parse_err_fn = unknown_outline)]
pub enum OutlineStyle {
    /// The silhouette's own smooth outline, cells clipped to it.
    #[default]
    Shape,
    /// The cells' outline (whole cells, a staircase on a curve).
    Cells,
}

impl OutlineStyle {
    /// Whether this is the default ([`OutlineStyle::Shape`]).
    pub fn is_default(&self) -> bool {
        *self == OutlineStyle::Shape
    }

    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// The error for an outline that is not one.
fn unknown_outline(s: &str) -> Error {
    Error::option(format!("unknown outline '{s}' (use shape or cells)"))
}
