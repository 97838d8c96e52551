//! Every command shown with its output in README.md (and the other guides listed in
//! [`GUIDES`]) is run, and its output compared with the text shown, so that the documents
//! cannot drift from what the program does. Times, rates and memory figures are masked; a line
//! `...` or `…` stands for any number of lines. Commands that cannot run inside a test (the
//! test suite itself, ten-minute campaigns, tools fetched from the network) are listed in
//! [`NOT_RUN`] with the reason.
//!
//! Every command runs in the state its reader is in (`cargo run --release -- …`
//! from a checkout, with no `ordo` on the PATH; `ordo …` once installed, with it on the PATH),
//! each guide keeps to the form it states ([`one_form_per_guide`]), and every count printed by
//! a documented command agrees with its number ([`count_disagreements`]).

use std::path::{Path, PathBuf};
use std::process::Command;

const ORDO: &str = env!("CARGO_BIN_EXE_ordo");

/// The guides whose `console` blocks are checked.
const GUIDES: [&str; 3] = ["README.md", "docs/guide.md", "spec/conformance/README.md"];

/// Command prefixes not run here, with the reason.
const NOT_RUN: [(&str, &str); 8] = [
    (
        "cargo run --release -- serve",
        "starts a server: tests/it/serve.rs and tests/browser/ drive it",
    ),
    (
        "curl ",
        "asks a running server: tests/it/serve.rs runs these requests",
    ),
    ("cargo test", "the test suite itself"),
    ("cargo install", "installs a tool"),
    (
        "cargo +nightly",
        "cargo-fuzz on the nightly toolchain: fuzz/campaign.sh",
    ),
    ("bash fuzz/", "a ten-minute campaign per target"),
    ("cargo bench", "benchmarks take minutes"),
    (
        "cargo run --release -- fuzz --seconds 600",
        "a ten-minute campaign",
    ),
];

/// One shown command and the output shown under it.
struct Shown {
    guide: String,
    line: usize,
    command: String,
    output: Vec<String>,
}

/// The commands of every `console` block of `text`, each with its shown output.
fn shown(guide: &str, text: &str) -> Vec<Vec<Shown>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<Shown>> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut current, line.trim_end()) {
            (None, "```console") => current = Some(Vec::new()),
            (Some(_), "```") => {
                let mut block = current.take().unwrap_or_default();
                for s in &mut block {
                    while s.output.last().is_some_and(|l| l.trim().is_empty()) {
                        s.output.pop();
                    }
                }
                blocks.push(block);
            }
            (Some(block), l) => match l.strip_prefix("$ ") {
                Some(cmd) => block.push(Shown {
                    guide: guide.to_string(),
                    line: i + 1,
                    command: cmd.split("  #").next().unwrap_or(cmd).trim().to_string(),
                    output: Vec::new(),
                }),
                None => {
                    if let Some(last) = block.last_mut() {
                        last.output.push(l.to_string());
                    }
                }
            },
            _ => {}
        }
    }
    blocks
}

/// Split a command line into words (double quotes group).
fn words(cmd: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in cmd.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            c => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Replace the number before a unit of time, size or rate by `#`.
fn mask(line: &str) -> String {
    const UNITS: [&str; 13] = [
        "s",
        "s,",
        "s)",
        "ms",
        "µs",
        "ns",
        "MB",
        "GB",
        "KB",
        "leaves/s",
        "per",
        "positions/s",
        "nodes/s",
    ];
    let toks: Vec<&str> = line.split_whitespace().collect();
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let numeric = {
            let core = t.trim_start_matches(['(', '=']);
            !core.is_empty()
                && core
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
        };
        let unit = toks
            .get(i + 1)
            .is_some_and(|u| UNITS.contains(&u.trim_end_matches([')', ']', ',', ';'])));
        out.push(if numeric && unit { "#" } else { t });
    }
    out.join(" ")
}

/// Whether `got` matches the shown lines (`...`/`…` match any number of lines).
fn matches(shown: &[String], got: &[String]) -> Result<(), String> {
    let (mut i, mut j) = (0, 0);
    while i < shown.len() {
        let s = shown[i].trim();
        if s == "..." || s == "…" {
            let Some(next) = shown.get(i + 1) else {
                return Ok(());
            };
            let want = mask(next);
            match got[j..].iter().position(|g| mask(g) == want) {
                Some(k) => j += k,
                None => return Err(format!("no line matches {next:?} after the elision")),
            }
            i += 1;
            continue;
        }
        let Some(g) = got.get(j) else {
            return Err(format!("output ends before {:?}", shown[i]));
        };
        if mask(&shown[i]) != mask(g) {
            return Err(format!("shown {:?}\n   got {:?}", shown[i], g));
        }
        i += 1;
        j += 1;
    }
    if j < got.len() {
        return Err(format!("output goes on: {:?}", got[j]));
    }
    Ok(())
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Run one shown `cargo run --release -- …` command as the test build of `ordo`; its output
/// lines (stdout, then stderr).
fn run(s: &Shown, dir: &Path) -> Vec<String> {
    let (cmd, head) = match s.command.split_once(" | head -") {
        Some((c, n)) => (c.to_string(), n.trim().parse::<usize>().ok()),
        None => (s.command.clone(), None),
    };
    let rest = cmd
        .strip_prefix("cargo run --release -- ")
        .or(cmd.strip_prefix("ordo "))
        .unwrap_or(&cmd);
    // The release build a reader makes (`ordo`, the examples) is the tested build here.
    let bin = Path::new(ORDO).parent().unwrap();
    let shown_bin = format!("{}/", bin.display());
    let args: Vec<String> = words(rest)
        .into_iter()
        .map(|a| a.replace("target/release/", &shown_bin))
        .collect();
    // Commands that write files (tables, HTML) run in a scratch folder of their block; the
    // rest in the repository, whose files (spec/conformance, analysis/) they read.
    let writes = matches!(
        args.first().map(String::as_str),
        Some("solve" | "tb" | "explain" | "prove")
    );
    let in_repo = !writes
        || args
            .iter()
            .any(|a| a.contains('/') && repo().join(a).exists());
    let cwd = if in_repo { repo() } else { dir.to_path_buf() };
    // `ordo` on the PATH only in the installed form, as after `cargo install` (an engine
    // command such as "ordo engine"); a `cargo run` command finds no `ordo` there.
    let installed = s.command.starts_with("ordo ");
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf())
            .filter(|_| installed)
            .chain(
                std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
                    .filter(|p| installed || !p.join("ordo").exists()),
            ),
    )
    .unwrap();
    let o = Command::new(ORDO)
        .args(&args)
        .current_dir(cwd)
        .env("PATH", path)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let mut lines: Vec<String> = text
        .replace(&shown_bin, "target/release/")
        .lines()
        .map(String::from)
        .collect();
    if let Some(n) = head {
        lines.truncate(n);
    }
    lines
}

/// Run the commands of one `console` block in order (later ones may read what earlier ones
/// wrote, in the block's own scratch folder): how many ran, and the mismatches.
fn run_block(tag: &str, block: &[Shown]) -> (usize, Vec<String>) {
    let dir = crate::common::shared_scratch(&format!("docs-{tag}"));
    let (mut ran, mut failures) = (0, Vec::new());
    for s in block {
        if NOT_RUN.iter().any(|(p, _)| s.command.starts_with(p)) {
            continue;
        }
        assert!(
            s.command.starts_with("cargo run --release -- ") || s.command.starts_with("ordo "),
            "{}:{}: '{}' is neither run nor listed in NOT_RUN",
            s.guide,
            s.line,
            s.command
        );
        ran += 1;
        let got = run(s, &dir);
        if let Err(e) = matches(&s.output, &got) {
            failures.push(format!("{}:{}: $ {}\n   {e}", s.guide, s.line, s.command));
        }
        for bad in got.iter().flat_map(|l| count_disagreements(l)) {
            failures.push(format!(
                "{}:{}: $ {}\n   count: {bad}",
                s.guide, s.line, s.command
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    (ran, failures)
}

/// Every `cargo run --release -- …` command of the guides prints what the guide shows. The
/// blocks are independent, so they run side by side (the solver and table commands take
/// seconds each); the failures are listed in the order of the guides.
#[test]
fn readme_commands_print_what_is_shown() {
    let mut blocks = Vec::new();
    for (g, guide) in GUIDES.iter().enumerate() {
        let text = std::fs::read_to_string(repo().join(guide)).unwrap();
        for (b, block) in shown(guide, &text).into_iter().enumerate() {
            blocks.push((format!("{g}-{b}"), block));
        }
    }
    let results: Vec<(usize, Vec<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = blocks
            .iter()
            .map(|(tag, block)| scope.spawn(move || run_block(tag, block)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let ran: usize = results.iter().map(|r| r.0).sum();
    let failures: Vec<String> = results.into_iter().flat_map(|r| r.1).collect();
    assert!(ran >= 10, "only {ran} commands found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The checker itself: masking, elision and mismatches.
#[test]
fn the_docs_checker_masks_times_and_finds_differences() {
    assert_eq!(
        mask("solved in 0.54 s, peak memory 19.6 MB"),
        "solved in # s, peak memory # MB"
    );
    let shown: Vec<String> = ["a", "...", "c"].map(String::from).to_vec();
    let got: Vec<String> = ["a", "b", "b", "c"].map(String::from).to_vec();
    assert!(matches(&shown, &got).is_ok());
    let bad: Vec<String> = ["a", "b"].map(String::from).to_vec();
    assert!(matches(&shown, &bad).is_err());
    assert!(matches(&["x".to_string()], &["y".to_string()]).is_err());
    assert_eq!(
        words(r#"explain --position "4/1B2 w classic" --move a"#),
        ["explain", "--position", "4/1B2 w classic", "--move", "a"]
    );
}

/// Nouns the program counts, singular and plural, so that every count agrees with its number.
const NOUNS: [(&str, &str); 31] = [
    ("thread", "threads"),
    ("piece", "pieces"),
    ("position", "positions"),
    ("clause", "clauses"),
    ("move", "moves"),
    ("group", "groups"),
    ("slice", "slices"),
    ("vector", "vectors"),
    ("case", "cases"),
    ("check", "checks"),
    ("playout", "playouts"),
    ("finding", "findings"),
    ("problem", "problems"),
    ("node", "nodes"),
    ("leaf", "leaves"),
    ("ply", "plies"),
    ("key", "keys"),
    ("file", "files"),
    ("game", "games"),
    ("board", "boards"),
    ("mismatch", "mismatches"),
    ("second", "seconds"),
    ("value", "values"),
    ("entry", "entries"),
    ("byte", "bytes"),
    ("job", "jobs"),
    ("square", "squares"),
    ("row", "rows"),
    ("column", "columns"),
    ("disagreement", "disagreements"),
    ("restart", "restarts"),
];

/// Every count in `line` whose noun disagrees with its number: `1 threads`, `2 piece`
/// (a whole number, then one of [`NOUNS`], or an adjective and one: `2 core position`).
fn count_disagreements(line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut bad = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let Ok(n) = w.trim_start_matches(['(', '[']).parse::<u64>() else {
            continue;
        };
        for noun in words.iter().skip(i + 1).take(2) {
            let noun = noun.trim_end_matches([',', ';', ':', '.', ')', ']']);
            let Some((one, many)) = NOUNS.iter().find(|(o, m)| *o == noun || *m == noun) else {
                continue;
            };
            if (n == 1 && noun == *many) || (n != 1 && noun == *one) {
                bad.push(format!("'{w} {noun}' in {line:?}"));
            }
            break;
        }
    }
    bad
}

/// The counts checker: a word that disagrees with its number is found, one that agrees is not.
#[test]
fn counts_that_disagree_with_their_number_are_found() {
    for line in [
        "fuzz: seed 1, 1 threads, 1.0 s wall",
        "White 1 pieces, Black 2 pieces",
        "built 2 position",
        "(1 clauses violated)",
        "11060 core position (2765 bytes)",
    ] {
        assert_eq!(count_disagreements(line).len(), 1, "{line}");
    }
    for line in [
        "fuzz: seed 1, 1 thread, 2.0 s wall, 1.9 s CPU: 10 positions checked",
        "White 1 piece, Black 0 pieces",
        "move 3 'b3-b4' is not legal",
        "perft(5) = 724821826  [bitboard engine, 1.64 s wall, 3.20 s CPU, 1 leaves/s]",
        "longest 1 ply, 17 plies",
        "2 clauses violated:",
    ] {
        assert_eq!(count_disagreements(line), Vec::<String>::new(), "{line}");
    }
}

/// Each guide says once which form its commands take, and keeps to it. In
/// the README the commands before `cargo install` are `cargo run --release -- …` and those after
/// it `ordo …`; the guide has no install step, so all of its commands are `cargo run`.
#[test]
fn one_form_per_guide() {
    for guide in ["README.md", "docs/guide.md"] {
        let text = std::fs::read_to_string(repo().join(guide)).unwrap();
        let mut installed = false;
        let mut forms = (0, 0);
        for s in shown(guide, &text).iter().flatten() {
            if s.command.starts_with("cargo install --path") {
                installed = true;
                continue;
            }
            let ordo_form = s.command.starts_with("ordo ");
            let cargo_form = s.command.starts_with("cargo run --release -- ");
            if ordo_form {
                forms.0 += 1;
            }
            if cargo_form {
                forms.1 += 1;
            }
            assert!(
                if installed { !cargo_form } else { !ordo_form },
                "{guide}:{}: '{}' is not in the form of its place ({})",
                s.line,
                s.command,
                if installed {
                    "installed: ordo …"
                } else {
                    "before install: cargo run --release -- …"
                }
            );
        }
        assert!(forms.0 + forms.1 >= 3, "{guide}: {forms:?}");
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("in place of `cargo run --release --`")
                || flat.contains("`cargo run --release --` stands in its place"),
            "{guide} does not say which form its commands take"
        );
    }
}
