//! Game values as the tables store them: one `u16` per position.
//!
//! Turns alternate, so the distance to the end of the game decides who wins: after an even
//! number of plies the side to move is the one who lost (its opponent made the last, winning
//! move), after an odd number it is the one who won. The stored code is therefore the distance
//! plus one, and 0 means a draw (no side can force the end: infinite play, ORDO-3.3).

use std::fmt;

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins; the game ends after this many plies (odd) at best play.
    Win(u16),
    /// The side to move loses; the game ends after this many plies (even; 0 = already over).
    Loss(u16),
    /// Neither side can force the end of the game.
    Draw,
}

/// Won, drawn or lost, without the distance (Syzygy's WDL): what a report says of a start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Wdl {
    /// The side in question can force a win (`win` in JSON).
    Win,
    /// Neither side can force the end (`draw` in JSON).
    Draw,
    /// The other side can force a win (`loss` in JSON).
    Loss,
}

impl Wdl {
    /// `win`, `draw` or `loss`: the JSON and text form.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Value {
    /// Won, drawn or lost, for the side to move.
    pub fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }

    /// The value whose distance is `plies`: even = loss, odd = win.
    pub fn at_distance(plies: u16) -> Value {
        if plies % 2 == 0 {
            Value::Loss(plies)
        } else {
            Value::Win(plies)
        }
    }

    /// The stored code: 0 = draw, otherwise distance + 1.
    pub fn code(self) -> u16 {
        match self {
            Value::Draw => 0,
            Value::Win(d) | Value::Loss(d) => d + 1,
        }
    }

    /// The value of a stored code.
    pub fn from_code(code: u16) -> Value {
        match code {
            0 => Value::Draw,
            c => Value::at_distance(c - 1),
        }
    }

    /// Distance in plies to the end of the game, `None` for a draw.
    pub fn distance(self) -> Option<u16> {
        match self {
            Value::Draw => None,
            Value::Win(d) | Value::Loss(d) => Some(d),
        }
    }

    /// The value of a position from the values of its successors (each seen from the
    /// opponent, who moves there): a win if some successor is lost (the quickest such loss,
    /// plus the move), a loss if every successor is won (the slowest, plus the move) or there
    /// is no move at all, a draw otherwise. `None` means "no successor" and is the loss in 0.
    pub fn from_successors(successors: impl IntoIterator<Item = Value>) -> Value {
        let mut best_win: Option<u16> = None;
        let mut worst_loss: Option<u16> = None;
        let mut any_draw = false;
        let mut any = false;
        for v in successors {
            any = true;
            match v {
                Value::Loss(d) => best_win = Some(best_win.map_or(d, |b| b.min(d))),
                Value::Win(d) => worst_loss = Some(worst_loss.map_or(d, |w| w.max(d))),
                Value::Draw => any_draw = true,
            }
        }
        match (any, best_win, any_draw, worst_loss) {
            (false, _, _, _) => Value::Loss(0),
            (_, Some(d), _, _) => Value::Win(d + 1),
            (_, None, true, _) => Value::Draw,
            (_, None, false, Some(d)) => Value::Loss(d + 1),
            (_, None, false, None) => Value::Draw,
        }
    }
}

/// Sort moves, each with the value it leaves the opponent, best for the mover first: the
/// quickest win (the opponent's quickest loss), then draws, then the slowest loss; moves of
/// equal value by their `spelling`.
pub fn sort_best_first<M>(moves: &mut [(M, Value)], spelling: impl Fn(&M) -> String) {
    moves.sort_by_cached_key(|(m, v)| {
        let rank = match *v {
            Value::Loss(d) => (0, i32::from(d)),
            Value::Draw => (1, 0),
            Value::Win(d) => (2, -i32::from(d)),
        };
        (rank, spelling(m))
    });
}

/// `1 ply`, `n plies`: a distance in words.
pub fn plies(n: impl Into<u64>) -> String {
    match n.into() {
        1 => "1 ply".into(),
        n => format!("{n} plies"),
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Value::Win(d) => write!(f, "win in {}", plies(d)),
            Value::Loss(0) => f.write_str("lost (game over)"),
            Value::Loss(d) => write!(f, "loss in {}", plies(d)),
            Value::Draw => f.write_str("draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_parity_decides_the_winner() {
        for d in 0..200u16 {
            let v = Value::at_distance(d);
            assert_eq!(Value::from_code(v.code()), v);
            assert_eq!(matches!(v, Value::Win(_)), d % 2 == 1);
        }
        assert_eq!(Value::from_code(0), Value::Draw);
    }

    #[test]
    fn successors_decide_the_value() {
        use Value::*;
        assert_eq!(Value::from_successors([]), Loss(0));
        assert_eq!(Value::from_successors([Win(3), Loss(4), Loss(2)]), Win(3));
        assert_eq!(Value::from_successors([Win(3), Win(7), Win(1)]), Loss(8));
        assert_eq!(Value::from_successors([Win(3), Draw]), Draw);
        assert_eq!(Value::from_successors([Draw, Loss(0)]), Win(1));
    }
}
