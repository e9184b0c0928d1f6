//! What links make usvg do before anything is drawn: its search for patterns, clips, masks
//! and filters that link back to themselves ([`recursion_checks`]), and the document counted
//! with every `<use>` and every `url(#id)` link standing for a copy of what it names
//! ([`Expansion`]).

use resvg::usvg;

use super::css::{Css, MAX_CSS_WORK};
use super::{
    MAX_DEPTH, MAX_EXPANDED_ELEMENTS, MAX_SVG_POINTS, MAX_TEXT_CHARS, NodeId, XmlNode, path_points,
    text_chars, thousands, too_complex, url_ids,
};
use crate::error::Result;

/// The most steps usvg's search for self-referencing patterns, clips, masks and filters may
/// take (each step an element looked at, about 17 ns here: 20 million take 0.35 s).
pub const MAX_RECURSION_CHECK_WORK: u64 = 20_000_000;

/// Refuses a picture whose links would make usvg's search for self-referencing links long,
/// before it starts. usvg searches every pattern, clip path, mask and filter (used or not)
/// for links inside it, and looks through everything each link names for a link back; it
/// starts over after each link back it finds and removes. A 250 KB file of unused clip paths
/// (3,000 shapes linking to a clip of 3,000 shapes, and 300 clips that name themselves) took
/// 46 s. The cost counted here: one search (every element inside those containers, and
/// everything each link in them names) times one more than the links back.
pub(super) fn recursion_checks<'a, 'input>(
    xml: &'a usvg::roxmltree::Document<'input>,
    ids: &std::collections::HashMap<&'a str, XmlNode<'a, 'input>>,
    css: &Css<'a, 'input>,
) -> Result<()> {
    let nodes: Vec<XmlNode<'a, 'input>> = xml.descendants().collect();
    let index = |n: XmlNode| n.id().get_usize();
    // what each element links to by url(#id), from any attribute or a matching style rule
    let mut linked: Vec<Vec<XmlNode<'a, 'input>>> = vec![Vec::new(); nodes.len()];
    for n in nodes.iter().filter(|n| n.is_element()) {
        linked[index(*n)] = n
            .attributes()
            .flat_map(|a| url_ids(a.value()))
            .filter_map(|id| ids.get(id).copied())
            .chain(css.refs.get(&n.id()).into_iter().flatten().copied())
            .collect();
    }
    let links = |n: XmlNode| &linked[index(n)];
    // elements in each subtree, and what searching the links inside it costs, bottom up
    let mut size = vec![0_u64; nodes.len()];
    for n in nodes.iter().rev().filter(|n| n.is_element()) {
        size[index(*n)] = 1 + n.children().map(|c| size[index(c)]).sum::<u64>();
    }
    let mut link_cost = vec![0_u64; nodes.len()];
    for n in nodes.iter().rev().filter(|n| n.is_element()) {
        let own: u64 = links(*n).iter().map(|t| size[index(*t)]).sum();
        link_cost[index(*n)] = n
            .children()
            .map(|c| link_cost[index(c)])
            .fold(own, u64::saturating_add);
    }
    let containers: Vec<_> = nodes
        .iter()
        .filter(|n| {
            matches!(
                n.tag_name().name(),
                "pattern" | "clipPath" | "mask" | "filter"
            )
        })
        .collect();
    let search = containers
        .iter()
        .map(|e| size[index(**e)].saturating_add(link_cost[index(**e)]))
        .fold(0_u64, u64::saturating_add);
    let refuse = || {
        too_complex(format!(
            "checking its patterns, clips and masks for links back to themselves takes more \
             than {} million steps (the limit is {} million)",
            thousands(MAX_RECURSION_CHECK_WORK / 1_000_000),
            thousands(MAX_RECURSION_CHECK_WORK / 1_000_000)
        ))
    };
    if search > MAX_RECURSION_CHECK_WORK {
        return Err(refuse());
    }
    // the search is affordable: count the links back as usvg finds them (to the container
    // itself, or from inside what the link names to the container)
    let mut back: u64 = 0;
    for e in &containers {
        for d in e.descendants().filter(|d| d.is_element()) {
            for &t in links(d) {
                let loops = t == **e
                    || t.descendants()
                        .any(|n| n.is_element() && links(n).contains(e));
                back += u64::from(loops);
            }
        }
    }
    // patterns are searched twice (fill, then stroke)
    if search.saturating_mul(2).saturating_mul(back + 1) > MAX_RECURSION_CHECK_WORK {
        return Err(refuse());
    }
    Ok(())
}

/// Counts the elements of an XML document with every `<use>` standing for a copy of what it
/// names, and every pattern, clip path and mask (anything named by `url(#id)` in an attribute,
/// a `style` or a matching style rule) counted again where it is used (usvg's conversion and
/// resvg walk them once per use: ten patterns each filling ten shapes with the next, 6.5 KB,
/// ran for minutes). Each element is counted once, so a chain of uses costs its length, not
/// the product; `<defs>` and `<symbol>` count only where they are named.
pub(super) struct Expansion<'a, 'input, 'c> {
    ids: std::collections::HashMap<&'a str, XmlNode<'a, 'input>>,
    css: &'c Css<'a, 'input>,
    memo: std::collections::HashMap<NodeId, [u64; 2]>,
    css_memo: std::collections::HashMap<NodeId, [u64; 2]>,
}

/// What the count found: the elements, the work of matching the style sheets against every
/// element usvg reads (definitions too), and the characters of text it lays out, `<use>`
/// copies matched and laid out again.
pub(super) struct Expanded {
    /// Elements.
    pub elements: u64,
    /// Path points, every arc counted as the curves it is converted to.
    pub points: u64,
    /// The work of matching the style sheets.
    pub css_work: u64,
    /// Characters of text.
    pub text_chars: u64,
}

impl<'a, 'input, 'c> Expansion<'a, 'input, 'c> {
    /// The expanded size of `xml` (capped a little past the limits).
    pub fn count(
        xml: &'a usvg::roxmltree::Document<'input>,
        ids: std::collections::HashMap<&'a str, XmlNode<'a, 'input>>,
        css: &'c Css<'a, 'input>,
    ) -> Result<Expanded> {
        let mut e = Expansion {
            ids,
            css,
            memo: std::collections::HashMap::new(),
            css_memo: std::collections::HashMap::new(),
        };
        let [elements, points] = e.node(xml.root_element(), 0)?;
        let [css_work, text_chars] = e.read(xml.root_element(), 0)?;
        Ok(Expanded {
            elements,
            points,
            css_work,
            text_chars,
        })
    }

    /// The element `use` names, if any.
    fn href(&self, node: XmlNode<'a, 'input>) -> Option<XmlNode<'a, 'input>> {
        node.attributes()
            .find(|a| a.name() == "href")
            .and_then(|a| a.value().strip_prefix('#'))
            .and_then(|id| self.ids.get(id).copied())
    }

    /// Refuses elements nested deeper than [`MAX_DEPTH`].
    fn deep(depth: u32) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(too_complex(format!(
                "elements nested more than {MAX_DEPTH} deep"
            )));
        }
        Ok(())
    }

    /// The elements and path points of `node` expanded.
    fn node(&mut self, node: XmlNode<'a, 'input>, depth: u32) -> Result<[u64; 2]> {
        Self::deep(depth)?;
        if let Some(&n) = self.memo.get(&node.id()) {
            return Ok(n);
        }
        // a link that leads back here counts nothing (usvg drops it)
        self.memo.insert(node.id(), [0, 0]);
        let own_points = match node.attribute("d") {
            Some(d) if node.tag_name().name() == "path" => path_points(d),
            _ => 0,
        };
        let mut n = [1, own_points];
        // definitions are drawn only where a use names them
        let drawn =
            |c: &XmlNode| c.is_element() && !matches!(c.tag_name().name(), "defs" | "symbol");
        let name = node.tag_name().name();
        // a use's copy; patterns and gradients take their content from the one they name,
        // a text path its path
        let copied = matches!(
            name,
            "use" | "pattern" | "linearGradient" | "radialGradient" | "textPath"
        )
        .then(|| self.href(node))
        .flatten();
        let linked: Vec<XmlNode<'a, 'input>> = node
            .children()
            .filter(drawn)
            .chain(copied)
            .chain(
                node.attributes()
                    .flat_map(|a| url_ids(a.value()))
                    .filter_map(|id| self.ids.get(id).copied()),
            )
            .chain(self.css.refs.get(&node.id()).into_iter().flatten().copied())
            .collect();
        for target in linked {
            let c = self.node(target, depth + 1)?;
            n = [n[0].saturating_add(c[0]), n[1].saturating_add(c[1])];
            if n[0] > MAX_EXPANDED_ELEMENTS || n[1] > MAX_SVG_POINTS {
                break;
            }
        }
        self.memo.insert(node.id(), n);
        Ok(n)
    }

    /// The CSS work and the text characters of `node` and everything usvg reads inside it:
    /// every element child (definitions too) and, for a `<use>`, the copy (matched and laid
    /// out again).
    fn read(&mut self, node: XmlNode<'a, 'input>, depth: u32) -> Result<[u64; 2]> {
        Self::deep(depth)?;
        if let Some(&n) = self.css_memo.get(&node.id()) {
            return Ok(n);
        }
        self.css_memo.insert(node.id(), [0, 0]);
        let css = self
            .css
            .work
            .get(node.id().get_usize())
            .copied()
            .unwrap_or(0);
        let mut n = [css, text_chars(node)];
        let copied = (node.tag_name().name() == "use")
            .then(|| self.href(node))
            .flatten();
        for target in node.children().filter(|c| c.is_element()).chain(copied) {
            let c = self.read(target, depth + 1)?;
            n = [n[0].saturating_add(c[0]), n[1].saturating_add(c[1])];
            if n[0] > MAX_CSS_WORK || n[1] > MAX_TEXT_CHARS {
                break;
            }
        }
        self.css_memo.insert(node.id(), n);
        Ok(n)
    }
}
