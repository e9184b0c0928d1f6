//! The puzzles' warnings for the person printing, grouped one line per kind
//! ([`group_warnings`]): the same words with other numbers are one kind, their numbers shown
//! as ranges.

/// The puzzles' warnings (`per_puzzle[i]`: puzzle `i + 1`'s, labelled `labels[i]`), one line
/// per kind: a warning only one puzzle has keeps its label in front (`Puzzle 3: ...`); a kind
/// several puzzles share (the same words, numbers aside) is one line, its numbers given as
/// ranges, after how many puzzles and which: `21 puzzles (3, 5, 7, ...): 1 to 4 cells of the
/// shape dropped (not connected)`. Kinds are in the order they first appear.
pub fn group_warnings(per_puzzle: &[&[String]], labels: &[String]) -> Vec<String> {
    // kind -> (puzzles, each number slot's lowest and highest, the text between the numbers)
    struct Kind {
        puzzles: Vec<usize>,
        ranges: Vec<(u64, u64)>,
        words: Vec<String>,
        first: String,
    }
    let mut kinds: Vec<(String, Kind)> = Vec::new();
    for (i, ws) in per_puzzle.iter().enumerate() {
        for w in ws.iter() {
            let (words, numbers) = split_numbers(w);
            let key = words.join("#");
            let at = match kinds.iter().position(|(k, _)| *k == key) {
                Some(at) => at,
                None => {
                    kinds.push((
                        key,
                        Kind {
                            puzzles: Vec::new(),
                            ranges: numbers.iter().map(|&n| (n, n)).collect(),
                            words,
                            first: w.clone(),
                        },
                    ));
                    kinds.len() - 1
                }
            };
            let kind = &mut kinds[at].1;
            if kind.puzzles.last() != Some(&i) {
                kind.puzzles.push(i);
            }
            for (r, &n) in kind.ranges.iter_mut().zip(&numbers) {
                *r = (r.0.min(n), r.1.max(n));
            }
        }
    }
    kinds
        .into_iter()
        .map(|(_, k)| {
            if k.puzzles.len() == 1 {
                return format!("{}: {}", labels[k.puzzles[0]], k.first);
            }
            let mut text = k.words[0].clone();
            for (r, w) in k.ranges.iter().zip(&k.words[1..]) {
                if r.0 == r.1 {
                    text.push_str(&r.0.to_string());
                } else {
                    text.push_str(&format!("{} to {}", r.0, r.1));
                }
                text.push_str(w);
            }
            const SHOWN: usize = 8;
            let mut which: Vec<String> = k
                .puzzles
                .iter()
                .take(SHOWN)
                .map(|i| (i + 1).to_string())
                .collect();
            if k.puzzles.len() > SHOWN {
                which.push("...".into());
            }
            format!("{} puzzles ({}): {text}", k.puzzles.len(), which.join(", "))
        })
        .collect()
}

/// A warning's text split at its whole numbers: the words around them (one more than the
/// numbers) and the numbers.
fn split_numbers(w: &str) -> (Vec<String>, Vec<u64>) {
    let mut words = vec![String::new()];
    let mut numbers = Vec::new();
    let mut chars = w.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        // a number stands alone: not part of a word or a decimal (`x2`, `0.5`)
        let before = w[..at].chars().next_back();
        let alone = before.is_none_or(|b| !b.is_alphanumeric() && b != '.');
        if c.is_ascii_digit() && alone {
            let mut end = at + 1;
            while let Some(&(i, d)) = chars.peek() {
                if !d.is_ascii_digit() {
                    break;
                }
                end = i + 1;
                chars.next();
            }
            let after = w[end..].chars().next();
            match w[at..end].parse::<u64>() {
                Ok(n) if after.is_none_or(|a| !a.is_alphanumeric() && a != '.') => {
                    numbers.push(n);
                    words.push(String::new());
                }
                _ => words.last_mut().unwrap().push_str(&w[at..end]),
            }
        } else {
            words.last_mut().unwrap().push(c);
        }
    }
    (words, numbers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_are_one_line_per_kind_with_counts_and_puzzles() {
        let labels: Vec<String> = (1..=12).map(|n| format!("Puzzle {n}")).collect();
        let dropped = |n: usize| format!("{n} cells of the shape dropped (not connected)");
        let mut per: Vec<Vec<String>> = vec![Vec::new(); 12];
        for (i, n) in [
            (2, 1),
            (4, 4),
            (6, 1),
            (7, 2),
            (8, 3),
            (9, 1),
            (10, 1),
            (11, 1),
            (3, 2),
        ] {
            per[i].push(dropped(n));
        }
        per[5].push("corridors 2.5 mm wide, under the 3 mm asked for".into());
        per[0].push("the title is too long and was shrunk to 0.5 of its size".into());
        per[1].push("the title is too long and was shrunk to 0.5 of its size".into());
        let refs: Vec<&[String]> = per.iter().map(|w| &w[..]).collect();
        assert_eq!(
            group_warnings(&refs, &labels),
            [
                "2 puzzles (1, 2): the title is too long and was shrunk to 0.5 of its size",
                "9 puzzles (3, 4, 5, 7, 8, 9, 10, 11, ...): 1 to 4 cells of the shape dropped \
                 (not connected)",
                "Puzzle 6: corridors 2.5 mm wide, under the 3 mm asked for",
            ]
        );
        assert_eq!(
            split_numbers("x2 and 10 of 0.5"),
            (vec!["x2 and ".into(), " of 0.5".into()], vec![10])
        );
    }
}
