//! Typed report fields written as their text form (`classic`, `4x4`, `row1`, `3v2`): reports
//! and headers keep the JSON and TOML they always had while the fields are enums and structs.
//! Use as `#[serde(with = "crate::text")]`.

use std::fmt::Display;
use std::str::FromStr;

use serde::{de::Error, Deserialize, Deserializer, Serializer};

/// The field as its `Display` text.
pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

/// The field read back with its `FromStr`; its error names the text.
pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
where
    T: FromStr,
    T::Err: Display,
    D: Deserializer<'de>,
{
    let s = String::deserialize(d)?;
    s.parse().map_err(D::Error::custom)
}

/// A list of typed values written as a list of their text forms (`keys = ["a1-a2"]`).
/// Use as `#[serde(with = "crate::text::list")]`.
pub mod list {
    use super::*;

    /// Each value as its `Display` text.
    pub fn serialize<T: Display, S: Serializer>(values: &[T], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(values.iter().map(|v| v.to_string()))
    }

    /// Each value read back with its `FromStr`; the error names the text.
    pub fn deserialize<'de, T, D>(d: D) -> Result<Vec<T>, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        let texts = Vec::<String>::deserialize(d)?;
        texts
            .iter()
            .map(|s| s.parse().map_err(|e| D::Error::custom(format!("{s}: {e}"))))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{Dims, Variant};
    use crate::{Material, Setup};

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Header {
        #[serde(with = "super")]
        variant: Variant,
        #[serde(with = "super")]
        board: Dims,
        #[serde(with = "super")]
        setup: Setup,
        #[serde(with = "super")]
        material: Material,
    }

    /// The typed fields are written as the text the reports always held, and read back.
    #[test]
    fn typed_fields_round_trip_as_their_text() {
        let h = Header {
            variant: Variant::X,
            board: Dims::new(5, 4).unwrap(),
            setup: Setup::Row2,
            material: Material { white: 3, black: 2 },
        };
        let json = serde_json::to_string(&h).unwrap();
        assert_eq!(
            json,
            r#"{"variant":"x","board":"5x4","setup":"row2","material":"3v2"}"#
        );
        assert_eq!(serde_json::from_str::<Header>(&json).unwrap(), h);
        let bad = json.replace("row2", "row9");
        let err = serde_json::from_str::<Header>(&bad)
            .unwrap_err()
            .to_string();
        assert!(err.contains("row9"), "{err}");
    }
}
