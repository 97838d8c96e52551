//! Minimizing: the first finding of each kind is shrunk, piece by piece, to the smallest
//! position where the engine still disagrees for one of the same main clauses (with the one
//! position minimizer, [`crate::diff::shrink`]), and drawn.

use super::difference::{Diff, Expected};
use super::report::Kind;
use super::Run;
use crate::diff::shrink::shrink;
use crate::notation::{format_position, parse_position};
use crate::render::{self, Annotations};
use crate::rules::Position;

/// Groups of findings shown in full.
const DETAILED: usize = 10;
/// Engine queries one minimization may spend.
const BUDGET: usize = 400;

impl Run<'_> {
    /// Minimize and draw the first finding of each group (while the engine still runs).
    pub(super) fn minimize_detailed(&mut self) {
        let firsts: Vec<usize> = self
            .report
            .groups()
            .iter()
            .map(|g| g[0])
            .take(DETAILED)
            .collect();
        for i in firsts {
            let f = &self.report.findings[i];
            if let (Kind::Moves, Some(d), Ok(pos)) =
                (f.kind, f.diff.clone(), parse_position(&f.position))
            {
                if self.report.stopped.is_none() {
                    self.minimize_one(i, pos, d);
                }
            }
            self.draw(i);
        }
    }

    fn minimize_one(&mut self, i: usize, pos: Position, diff: Diff) {
        let same = |d: &Diff| {
            !d.is_empty()
                && d.refused.is_none()
                && if diff.main.is_empty() {
                    (
                        d.only_engine.is_empty(),
                        d.only_reference.is_empty(),
                        d.status.is_some(),
                    ) == (
                        diff.only_engine.is_empty(),
                        diff.only_reference.is_empty(),
                        diff.status.is_some(),
                    )
                } else {
                    d.main.iter().any(|c| diff.main.contains(c))
                }
        };
        let pieces = |p: &Position| p.dims().squares().filter(|&s| p.get(s).is_some()).count();
        let from = pieces(&pos);
        let (best, best_diff) = shrink((pos.clone(), diff.clone()), BUDGET, |cand| {
            let expected = Expected::of(cand)?;
            if !self.alive("minimizing") {
                return None;
            }
            match self.probe(cand, &expected) {
                Ok(Some(d)) if same(&d) => Some(d),
                Ok(_) => None,
                Err(f) => {
                    self.incident("minimizing", f);
                    None
                }
            }
        });
        if pieces(&best) < from {
            self.report.findings[i].minimized = Some(super::report::Minimized {
                position: format_position(&best),
                pieces: pieces(&best),
                summary: super::report::one_line(&best_diff),
                shown_move: best_diff
                    .only_engine
                    .first()
                    .or(best_diff.only_reference.first())
                    .or(best_diff.listed_twice.first())
                    .map(|m| m.text.clone()),
            });
        }
    }

    /// With `--svg-dir`, draw finding `i` (minimized when it was) to a file.
    fn draw(&mut self, i: usize) {
        let Some(dir) = self.opts.svg_dir.clone() else {
            return;
        };
        let f = &self.report.findings[i];
        let Some((pos, mv)) = f.drawn() else {
            return;
        };
        let notes = Annotations {
            title: Some(format!(
                "{} [{}]",
                f.place,
                crate::rules::ClauseId::join(&f.main, ", ")
            )),
            ..Annotations::default()
        };
        let path = dir.join(format!("finding-{:03}.svg", i + 1));
        let svg = render::svg(&pos, mv.as_ref(), &notes);
        self.report.findings[i].svg = Some(match crate::files::write_atomically(&path, &svg) {
            Ok(()) => path.display().to_string(),
            Err(e) => format!("could not write {e}"),
        });
    }
}
