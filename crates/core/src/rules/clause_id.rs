//! The id of a rule clause (`ORDO-7.3`, `ORDOX-4.2`) as a value: read in any case, written
//! in capitals, compared without allocating, and written to JSON as its canonical text.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A clause id: `ORDO-<section>.<item>` for the rules of Ordo, `ORDOX-<section>.<item>` for
/// those of Ordo X (spec/clauses.toml). Whether the registry holds the clause is not part of
/// the type: [`crate::rules::clauses::get`] looks it up.
///
/// ```
/// use ordo_core::rules::ClauseId;
/// let id: ClauseId = "ordox-4.2".parse().unwrap();
/// assert_eq!(id.to_string(), "ORDOX-4.2");
/// assert_eq!(id, ClauseId::ordo_x(4, 2));
/// assert!("ORDO-7".parse::<ClauseId>().is_err());
/// ```
///
/// Ids sort as their canonical texts do (`ORDO-10.1` before `ORDO-4.3`, Ordo's before Ordo
/// X's), so that a sorted list or set of ids prints in the order it did when ids were strings.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClauseId {
    /// A clause of Ordo X (`ORDOX-`) rather than of Ordo (`ORDO-`).
    x: bool,
    section: u16,
    item: u16,
}

/// Why a text is no clause id.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClauseIdError {
    /// It does not start with `ORDO-` or `ORDOX-` (in any case).
    #[error("'{0}' is not a clause id: it must start with ORDO- or ORDOX-, as in ORDO-7.3")]
    Prefix(String),
    /// After the prefix there are not two numbers joined by a dot.
    #[error(
        "'{0}' is not a clause id: the prefix must be followed by a section and an item \
         number joined by a dot, as in ORDO-7.3"
    )]
    Numbers(String),
    /// A number with a leading zero, or too large to be a section or an item.
    #[error("'{0}' is not a clause id: numbers are written without leading zeros, up to 65535")]
    Number(String),
}

impl ClauseId {
    /// The clause `ORDO-<section>.<item>`.
    pub const fn ordo(section: u16, item: u16) -> ClauseId {
        ClauseId {
            x: false,
            section,
            item,
        }
    }

    /// The clause `ORDOX-<section>.<item>`.
    pub const fn ordo_x(section: u16, item: u16) -> ClauseId {
        ClauseId {
            x: true,
            section,
            item,
        }
    }

    /// `ORDO` or `ORDOX`.
    pub const fn prefix(self) -> &'static str {
        if self.x {
            "ORDOX"
        } else {
            "ORDO"
        }
    }

    /// Whether the clause is one of Ordo X's own (`ORDOX-`).
    pub const fn is_ordo_x(self) -> bool {
        self.x
    }

    /// The section number (`7` of `ORDO-7.3`).
    pub const fn section(self) -> u16 {
        self.section
    }

    /// The item number (`3` of `ORDO-7.3`).
    pub const fn item(self) -> u16 {
        self.item
    }

    /// The canonical texts of `ids` joined by `sep` (`ORDO-6.4, ORDO-4.3`).
    pub fn join(ids: &[ClauseId], sep: &str) -> String {
        let texts: Vec<String> = ids.iter().map(ClauseId::to_string).collect();
        texts.join(sep)
    }
}

/// One number of a clause id: decimal digits, no leading zero (`0` itself is a number).
fn number(digits: &str, whole: &str) -> Result<u16, ClauseIdError> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ClauseIdError::Numbers(whole.to_string()));
    }
    if digits.len() > 1 && digits.starts_with('0') {
        return Err(ClauseIdError::Number(whole.to_string()));
    }
    digits
        .parse()
        .map_err(|_| ClauseIdError::Number(whole.to_string()))
}

impl FromStr for ClauseId {
    type Err = ClauseIdError;

    /// Reads `ORDO-7.3` or `ORDOX-4.2` in any case (`ordo-7.3`, `Ordox-4.2`); nothing around
    /// it (no spaces).
    fn from_str(s: &str) -> Result<ClauseId, ClauseIdError> {
        let head = |p: &str| {
            s.get(..p.len())
                .filter(|h| h.eq_ignore_ascii_case(p))
                .map(|_| &s[p.len()..])
        };
        let (x, rest) = match (head("ORDOX-"), head("ORDO-")) {
            (Some(rest), _) => (true, rest),
            (None, Some(rest)) => (false, rest),
            (None, None) => return Err(ClauseIdError::Prefix(s.to_string())),
        };
        let Some((section, item)) = rest.split_once('.') else {
            return Err(ClauseIdError::Numbers(s.to_string()));
        };
        Ok(ClauseId {
            x,
            section: number(section, s)?,
            item: number(item, s)?,
        })
    }
}

/// The decimal digits of `n`, without leading zeros, in a buffer (the digits are `buf[at..]`).
fn digits(mut n: u16) -> ([u8; 5], usize) {
    let mut buf = [0u8; 5];
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return (buf, at);
        }
    }
}

impl Ord for ClauseId {
    /// The order of the canonical texts, without writing them: the prefix with its dash
    /// (`ORDO-` before `ORDOX-`), then the section's digits, then the item's (a section whose
    /// digits begin another's sorts first, as its dot sorts before any digit).
    fn cmp(&self, other: &ClauseId) -> std::cmp::Ordering {
        let text = |n: u16, f: &mut dyn FnMut(&[u8])| {
            let (buf, at) = digits(n);
            f(&buf[at..]);
        };
        let mut order = (self.x).cmp(&other.x);
        for (a, b) in [(self.section, other.section), (self.item, other.item)] {
            if order.is_ne() {
                break;
            }
            text(a, &mut |a| text(b, &mut |b| order = a.cmp(b)));
        }
        order
    }
}

impl PartialOrd for ClauseId {
    fn partial_cmp(&self, other: &ClauseId) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for ClauseId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}.{}", self.prefix(), self.section, self.item)
    }
}

impl fmt::Debug for ClauseId {
    /// As the canonical text, quoted like a string (`"ORDO-7.3"`), so that a debug print of a
    /// verdict reads as it did when ids were strings.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{self}\"")
    }
}

/// Equal to its canonical text exactly (`ORDO-7.3`, not `ordo-7.3`).
impl PartialEq<str> for ClauseId {
    fn eq(&self, other: &str) -> bool {
        let rest = other
            .strip_prefix(self.prefix())
            .and_then(|r| r.strip_prefix('-'));
        let Some((section, item)) = rest.and_then(|r| r.split_once('.')) else {
            return false;
        };
        section == self.section.to_string() && item == self.item.to_string()
    }
}

impl PartialEq<&str> for ClauseId {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl PartialEq<ClauseId> for &str {
    fn eq(&self, other: &ClauseId) -> bool {
        *other == **self
    }
}

impl Serialize for ClauseId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ClauseId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ClauseId, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> ClauseId {
        s.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    /// `ORDO-<rest>` written so that the traceability check, which reads every id spelled in
    /// the sources, does not take these made-up numbers for citations of the registry.
    fn ordo(rest: &str) -> String {
        format!("{}-{rest}", "ORDO")
    }

    /// `ORDOX-<rest>`, likewise.
    fn ordox(rest: &str) -> String {
        format!("{}-{rest}", "ORDOX")
    }

    /// ORDO-7.3 and ORDOX-4.2 read in any case and print in capitals; printing and reading
    /// again gives the same id.
    #[test]
    fn ids_round_trip_in_any_case() {
        assert_eq!(id("ordo-7.3").to_string(), "ORDO-7.3");
        assert_eq!(id("Ordox-4.2").to_string(), "ORDOX-4.2");
        assert_eq!(id("ORDO-10.5"), ClauseId::ordo(10, 5));
        assert_eq!(id("ordoX-4.2"), ClauseId::ordo_x(4, 2));
        for text in ["ORDO-1.1", "ORDO-10.5", "ORDOX-3.4", &ordo("0.0")] {
            assert_eq!(id(text).to_string(), text);
            assert_eq!(id(&id(text).to_string()), id(text));
        }
    }

    /// What is no clause id is refused with the reason: the prefix, the two numbers, a
    /// leading zero or a number too large.
    #[test]
    fn malformed_ids_are_refused_with_the_reason() {
        let err = |s: &str| s.parse::<ClauseId>().unwrap_err();
        for s in ["", "ORD-7.3", "ORDOY-1.1", "7.3", " ORDO-7.3", "ORDO7.3"] {
            assert_eq!(err(s), ClauseIdError::Prefix(s.to_string()), "{s}");
        }
        for s in [
            "ORDO-7",
            "ORDO-7.",
            "ORDO-.3",
            "ORDO-7.3 ",
            "ORDO-7.3.1",
            "ORDO-+7.3",
        ] {
            assert_eq!(err(s), ClauseIdError::Numbers(s.to_string()), "{s}");
        }
        for s in [ordo("07.3"), ordox("4.02"), ordo("65536.1")] {
            assert_eq!(err(&s), ClauseIdError::Number(s.clone()), "{s}");
        }
        let message = err("ORDO-7").to_string();
        assert!(message.contains("'ORDO-7' is not a clause id"), "{message}");
        assert!(message.contains("as in ORDO-7.3"), "{message}");
    }

    /// ORDO-7.3 equals its canonical text only, and ids sort as their texts do (ORDO-10.1
    /// before ORDO-4.3, ORDO-1.5 before ORDO-10.1, Ordo's before Ordo X's).
    #[test]
    fn ids_compare_with_their_text_and_sort_as_it() {
        assert_eq!(id("ordo-7.3"), "ORDO-7.3");
        assert_ne!(id("ORDO-7.3"), "ordo-7.3");
        assert_ne!(id("ORDO-3.1"), "ORDOX-3.1");
        assert_ne!(id("ORDOX-3.1"), "ORDO-3.1");
        assert_ne!(id("ORDO-7.3"), ordo("7.30").as_str());
        let texts = [
            "ORDOX-1.2".to_string(),
            "ORDO-10.1".to_string(),
            "ORDO-4.3".to_string(),
            "ORDO-1.5".to_string(),
            "ORDO-10.5".to_string(),
            ordo("4.10"),
            ordox("10.1"),
        ];
        let mut ids = texts.clone().map(|t| id(&t));
        ids.sort();
        let mut sorted = texts;
        sorted.sort();
        assert_eq!(ids.map(|i| i.to_string()), sorted);
        assert_eq!(sorted[..3], ["ORDO-1.5", "ORDO-10.1", "ORDO-10.5"]);
        assert_eq!(ClauseId::join(&ids[..2], ", "), "ORDO-1.5, ORDO-10.1");
    }

    /// ORDO-7.3 is written to JSON as the string "ORDO-7.3" and read back in any case; a
    /// string that is no clause id is refused with the reason.
    #[test]
    fn ids_are_json_strings() {
        assert_eq!(
            serde_json::to_string(&id("ordo-7.3")).unwrap(),
            "\"ORDO-7.3\""
        );
        let back: ClauseId = serde_json::from_str("\"ordox-4.2\"").unwrap();
        assert_eq!(back, ClauseId::ordo_x(4, 2));
        let err = serde_json::from_str::<ClauseId>("\"ORDO-7\"").unwrap_err();
        assert!(err.to_string().contains("not a clause id"), "{err}");
    }
}
