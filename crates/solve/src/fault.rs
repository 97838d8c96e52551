//! Why a table file is refused: what its header or contents say against the file itself, this
//! build or the request. The loader names the file ([`crate::SolveError::File`]).

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TableFault {
    #[error(
        "computed under rules version {file} (this build has rules version {build}); rebuild it"
    )]
    RulesVersion { file: u32, build: u32 },
    /// The file is shorter or longer than its header implies.
    #[error("{len} bytes; the header implies {implied} ({entries} entries): the file is {}", if .len < .implied { "truncated" } else { "extended" })]
    Size {
        len: u64,
        implied: u64,
        entries: u64,
    },
    /// A compact table of another index scheme or solver.
    #[error("index scheme {scheme} of solver '{solver}' (this build reads compact index scheme {}); delete the file and build it again", crate::compact::INDEX_SCHEME)]
    IndexScheme { scheme: u32, solver: String },
    #[error("holds slices [{}]; expected [{}]", .held.join(", "), .expected.join(", "))]
    Slices {
        held: Vec<String>,
        expected: Vec<String>,
    },
    /// The index of a slice cannot be built to check the file against.
    #[error("{0}")]
    Index(String),
    #[error("slice {material} says {said} entries; its index has {index}")]
    SliceEntries {
        material: String,
        said: u64,
        index: usize,
    },
    #[error(
        "checksum mismatch (stored {stored}, contents {got}): the file is corrupted or was edited"
    )]
    Checksum { stored: String, got: String },
    /// A compact slice's header counts that its stored values cannot give.
    #[error("slice {material}: the header's {what} do not fit its {stored} stored values: the file is inconsistent")]
    SliceCounts {
        material: String,
        what: &'static str,
        stored: usize,
    },
}
