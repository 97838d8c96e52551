//! How the solver's messages name the settings they point the user to: the memory limit
//! the caller asked for, the problem search's budget. The
//! library speaks in its own terms ([`Names::LIBRARY`]); a front end renders the same typed
//! error in its terms ([`SolveError::render`]) instead of rewriting the text.

use super::memory::Limit;
use super::SolveError;

/// What a front end calls the settings a message points to.
#[derive(Clone, Copy, Debug)]
pub struct Names {
    /// The memory limit the caller asked for.
    pub asked_limit: &'static str,
    /// What gives the problem search more positions, after "or …".
    pub larger_budget: &'static str,
}

impl Names {
    /// The library's own terms: "the limit asked for", "give the search a larger budget".
    pub const LIBRARY: Names = Names {
        asked_limit: "the limit asked for",
        larger_budget: "give the search a larger budget",
    };
}

impl SolveError {
    /// A job over `limit`: the message reads `{before} the memory limit of {limit}{after}`.
    pub fn over_memory(before: String, limit: &Limit, after: &str) -> SolveError {
        SolveError::OverMemory {
            before,
            limit: *limit,
            after: after.to_string(),
        }
    }

    /// The message, with the settings it points to named as `names` say. Its `Display` is
    /// this under [`Names::LIBRARY`].
    pub fn render(&self, names: &Names) -> String {
        match self {
            SolveError::OverMemory {
                before,
                limit,
                after,
            } => format!(
                "{before} the memory limit of {}{after}",
                limit.describe(names)
            ),
            SolveError::RetroTable { path, held } => format!(
                "{path}: an old retro-solver table (format 2), which this build no longer reads; build {} again (the compact solver writes format 4)",
                held.describe().unwrap_or_else(|| "the table".into())
            ),
            SolveError::SearchGaveUp {
                problem,
                max_nodes,
                turns,
                refused,
            } => format!(
                "problem {problem}: the search gave up after {max_nodes} positions without deciding 'win in {turns}'; prove it with the tables of its material{}, or {}",
                refused
                    .as_ref()
                    .map(|why| format!(" (the tables were not used: {})", why.render(names)))
                    .unwrap_or_default(),
                names.larger_budget
            ),
            other => other.to_string(),
        }
    }
}
