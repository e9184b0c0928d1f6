//! The style sheets matched against the elements as usvg will match them, under a budget
//! ([`MAX_CSS_WORK`]): what matching costs per element, and which elements the matching rules
//! name with `url(#id)`.

use resvg::usvg;

use super::{NodeId, XmlNode, thousands, too_complex, url_ids};
use crate::error::{Error, Result};

/// The most steps matching the style sheets' selectors against the elements and resolving
/// `inherit` values may take, each step an element's name, attribute or parent looked at
/// (about 7 ns each here: 50 million take 0.4 s, and usvg takes as long again), every `<use>`
/// copy matched again.
pub const MAX_CSS_WORK: u64 = 50_000_000;

/// The refusal when matching the styles takes too long.
pub(super) fn css_too_long() -> Error {
    too_complex(format!(
        "its styles take more than {} million steps to match and resolve (the limit is {} \
         million)",
        thousands(MAX_CSS_WORK / 1_000_000),
        thousands(MAX_CSS_WORK / 1_000_000)
    ))
}

/// What the style sheets cost and add, found by matching them as usvg will (the same parser
/// and matcher, on the same sheets in the same order) but under a budget. The matcher
/// backtracks: for each descendant combinator it tries every ancestor, so `x g g g g g g g g
/// g g rect` against 40 nested groups took over 30 s in a 475-byte file.
pub(super) struct Css<'a, 'input> {
    /// The matching work of each element, by node index.
    pub work: Vec<u64>,
    /// The elements that matching declarations name with `url(#id)`, by element.
    pub refs: std::collections::HashMap<NodeId, Vec<XmlNode<'a, 'input>>>,
}

/// An element as the CSS matcher sees it, counting each step in `work` and, once the budget
/// is spent, matching nothing (so the matcher stops at once).
struct Counted<'a, 'input, 'w> {
    node: XmlNode<'a, 'input>,
    work: &'w std::cell::Cell<u64>,
}

impl Counted<'_, '_, '_> {
    fn spend(&self, steps: u64) -> bool {
        let work = self.work.get().saturating_add(steps);
        self.work.set(work);
        work <= MAX_CSS_WORK
    }
}

impl simplecss::Element for Counted<'_, '_, '_> {
    fn parent_element(&self) -> Option<Self> {
        if !self.spend(1) {
            return None;
        }
        self.node.parent_element().map(|node| Counted {
            node,
            work: self.work,
        })
    }

    fn prev_sibling_element(&self) -> Option<Self> {
        if !self.spend(1) {
            return None;
        }
        self.node.prev_sibling_element().map(|node| Counted {
            node,
            work: self.work,
        })
    }

    fn has_local_name(&self, local_name: &str) -> bool {
        self.spend(1) && self.node.tag_name().name() == local_name
    }

    fn attribute_matches(&self, local_name: &str, operator: simplecss::AttributeOperator) -> bool {
        // the element's attributes are searched, then the value read
        if !self.spend(1 + self.node.attributes().len() as u64 / 16) {
            return false;
        }
        match self.node.attribute(local_name) {
            Some(value) => self.spend(value.len() as u64 / 16) && operator.matches(value),
            None => false,
        }
    }

    fn pseudo_class_matches(&self, class: simplecss::PseudoClass) -> bool {
        self.spend(1)
            && match class {
                simplecss::PseudoClass::FirstChild => self.node.prev_sibling_element().is_none(),
                _ => false,
            }
    }
}

impl<'a, 'input> Css<'a, 'input> {
    /// Matches `user` (the sheet usvg is given) and the document's `<style>` sheets against
    /// every element, refusing the picture once the work passes [`MAX_CSS_WORK`].
    pub fn matched(
        xml: &'a usvg::roxmltree::Document<'input>,
        ids: &std::collections::HashMap<&'a str, XmlNode<'a, 'input>>,
        user: &'a str,
    ) -> Result<Self> {
        // as usvg reads them: the user sheet first, then each text/css or untyped <style>
        let mut sheet = simplecss::StyleSheet::new();
        sheet.parse_more(user);
        for node in xml.descendants().filter(|n| n.has_tag_name("style")) {
            if !matches!(node.attribute("type"), None | Some("text/css")) {
                continue;
            }
            if let Some(text) = node.text() {
                sheet.parse_more(text);
            }
        }
        let mut css = Css {
            work: vec![0; xml.descendants().count()],
            refs: std::collections::HashMap::new(),
        };
        let work = std::cell::Cell::new(0_u64);
        // what looking a property up through an element's ancestors costs (usvg resolves an
        // `inherit` so: each ancestor's attributes searched in turn), by node index
        let mut lookup = vec![0_u64; css.work.len()];
        for node in xml.descendants().filter(|n| n.is_element()) {
            let before = work.get();
            let element = Counted { node, work: &work };
            let mut inherits = node
                .attributes()
                .map(|a| a.value().matches("inherit").count() as u64)
                .sum::<u64>();
            for rule in &sheet.rules {
                if !element.spend(1) {
                    return Err(css_too_long());
                }
                if rule.selector.matches(&element) {
                    // each declaration is looked up among the element's attributes
                    element.spend(rule.declarations.len() as u64);
                    inherits += rule
                        .declarations
                        .iter()
                        .filter(|d| d.value.contains("inherit"))
                        .count() as u64;
                    let named = rule
                        .declarations
                        .iter()
                        .flat_map(|d| url_ids(d.value))
                        .filter_map(|id| ids.get(id).copied());
                    let named: Vec<_> = named.collect();
                    if !named.is_empty() {
                        css.refs.entry(node.id()).or_default().extend(named);
                    }
                }
            }
            let up = node.parent_element().map_or(0, |p| {
                lookup[p.id().get_usize()].saturating_add(1 + p.attributes().len() as u64)
            });
            lookup[node.id().get_usize()] = up;
            element.spend(inherits.saturating_mul(up));
            if work.get() > MAX_CSS_WORK {
                return Err(css_too_long());
            }
            if let Some(w) = css.work.get_mut(node.id().get_usize()) {
                *w = work.get() - before;
            }
        }
        Ok(css)
    }
}
