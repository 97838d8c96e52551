//! The certificate target: the certificate reader and checker (`ordo-certificate`) never panic,
//! and never accept a certificate that claims what is false. The first byte picks the case:
//! raw bytes read as a certificate (even), or edits to a true certificate, sealed again with a
//! correct checksum as a forger would (odd). The true certificate is the proof search's of the
//! Ordo X 3 x 4 two-row start, which Black wins (analysis/games.md): whatever edited
//! certificate about that start the checker accepts must establish that Black wins or that
//! White cannot force a win.

use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

use ordo::{check_certificate, Established};
use ordo_certificate::{check, read_from};
use ordo_core::rules::{setup, Color, Dims, Variant};

/// The true certificate the edits start from.
pub fn valid() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let start = setup::filled_rows(Dims::new(3, 4).expect("3x4"), 2, Variant::X)
            .expect("the two-row start fits");
        let path = std::env::temp_dir().join(format!("ordo-fuzz-cert-{}", std::process::id()));
        let stop = AtomicBool::new(false);
        ordo::prove(
            &start,
            &ordo::ProveOptions::default(),
            None,
            Some(&path),
            &stop,
            &mut |_| {},
        )
        .expect("the start is proved");
        assert!(check_certificate(&path, None).is_ok());
        let text = std::fs::read_to_string(&path).expect("the certificate was written");
        let _ = std::fs::remove_file(&path);
        text
    })
}

/// `text` without its closing line, sealed again with the BLAKE3 of what is left.
pub fn reseal(text: &str) -> String {
    let body = match text.rfind("blake3 ") {
        Some(i) => &text[..i],
        None => text,
    };
    format!("{body}blake3 {}\n", blake3::hash(body.as_bytes()).to_hex())
}

/// Run one fuzz case; an error names a false claim that was accepted.
pub fn check_case(data: &[u8]) -> Result<(), String> {
    let Some((&case, rest)) = data.split_first() else {
        return Ok(());
    };
    if case % 2 == 0 {
        if let Ok(cert) = read_from(rest) {
            let _ = check(&cert, None);
        }
        return Ok(());
    }
    let mut text = valid().as_bytes().to_vec();
    for edit in rest.chunks(3) {
        if let [hi, lo, byte] = *edit {
            let at = usize::from(u16::from_be_bytes([hi, lo])) % text.len();
            text[at] = byte;
        }
    }
    let forged = reseal(&String::from_utf8_lossy(&text));
    let Ok(cert) = read_from(forged.as_bytes()) else {
        return Ok(());
    };
    let original = read_from(valid().as_bytes()).expect("the true certificate reads");
    match check(&cert, None) {
        Ok(c) if c.root == original.root => match c.established {
            Established::Wins(Color::Black) | Established::CannotWin(Color::White) => Ok(()),
            other => Err(format!("a forged certificate was accepted: {other:?}")),
        },
        _ => Ok(()),
    }
}
