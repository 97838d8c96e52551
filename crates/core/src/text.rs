//! Counts in words: `1 piece`, `2 pieces`, `1 ply`, `3 plies`. Every count the workspace prints
//! next to a noun goes through [`count`], so the word always agrees with its number
//! (`1 ply`, never `1 plies`).

/// The plural of an English `noun` as the program uses it: `ply` → `plies`, `match` →
/// `matches`, `leaf` → `leaves`, otherwise an `s`. `noun` is singular.
pub fn plural(noun: &str) -> String {
    const IRREGULAR: [(&str, &str); 3] = [
        ("leaf", "leaves"),
        ("entry", "entries"),
        ("index", "indexes"),
    ];
    if let Some((_, many)) = IRREGULAR.iter().find(|(one, _)| *one == noun) {
        return (*many).to_string();
    }
    let consonant_y =
        noun.ends_with('y') && !noun[..noun.len() - 1].ends_with(|c: char| "aeiou".contains(c));
    if consonant_y {
        format!("{}ies", &noun[..noun.len() - 1])
    } else if ["s", "x", "ch", "sh"].iter().any(|e| noun.ends_with(e)) {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

/// `n` and `noun`, in the plural unless `n` is one: `count(1, "thread")` is `1 thread`,
/// `count(0, "piece")` is `0 pieces`.
pub fn count(n: impl TryInto<u128> + std::fmt::Display + Copy, noun: &str) -> String {
    format!("{n} {}", word(n, noun))
}

/// `noun` alone, in the plural unless `n` is one, for text that gives the number elsewhere
/// or not at all: `word(2, "piece")` is `pieces` ("the pieces on a2, b2").
pub fn word(n: impl TryInto<u128> + Copy, noun: &str) -> String {
    if n.try_into().is_ok_and(|v: u128| v == 1) {
        noun.to_string()
    } else {
        plural(noun)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_agrees_with_the_number() {
        assert_eq!(count(1_usize, "thread"), "1 thread");
        assert_eq!(count(2_u16, "thread"), "2 threads");
        assert_eq!(count(0_u64, "piece"), "0 pieces");
        assert_eq!(count(1_u32, "ply"), "1 ply");
        assert_eq!(count(7_usize, "ply"), "7 plies");
        assert_eq!(count(3_usize, "leaf"), "3 leaves");
        assert_eq!(count(2_usize, "key"), "2 keys");
        assert_eq!(count(2_usize, "match"), "2 matches");
        assert_eq!(count(2_usize, "entry"), "2 entries");
        assert_eq!(count(-1_i64, "move"), "-1 moves");
        assert_eq!(word(1_usize, "piece"), "piece");
        assert_eq!(word(3_usize, "piece"), "pieces");
    }
}
