//! The one routine for showing text that came from outside (arguments, file names, lines of a
//! list, positions, an engine's output) in what the programs print: every character that could
//! act on a terminal or hide itself is shown as a visible escape, and an echoed input is cut to
//! a stated length with its full length given.
//!
//! Escaped, in the form `\n`, `\t`, `\u{1b}`: the control characters (C0, DEL and C1, so an
//! escape sequence loses its ESC or CSI and prints as text), and the invisible and
//! bidirectional formatting characters (U+200B..U+200F, U+202A..U+202E, U+2060..U+206F,
//! U+FEFF and the like), which could reorder or hide the text around them, and the line and
//! paragraph separators.

/// Longest part of an input an error message quotes, in characters.
pub const ECHO_LIMIT: usize = 100;

/// Whether `c` is shown escaped: a control character, or a formatting character that is
/// invisible or changes the direction of the text.
pub fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{ad}' | '\u{34f}' | '\u{61c}' | '\u{115f}' | '\u{1160}' | '\u{17b4}' | '\u{17b5}'
            | '\u{180b}'..='\u{180f}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}' | '\u{3164}' | '\u{fe00}'..='\u{fe0f}' | '\u{feff}'
            | '\u{ffa0}' | '\u{fff0}'..='\u{fffb}' | '\u{e0000}'..='\u{e0fff}')
}

/// Push `c` onto `out`, escaped when [`needs_escape`] says so.
fn push_shown(out: &mut String, c: char) {
    if !needs_escape(c) {
        out.push(c);
    } else if c.is_control() {
        out.extend(c.escape_debug());
    } else {
        out.push_str(&format!("\\u{{{:x}}}", c as u32));
    }
}

/// `s` as an error message quotes it: escaped, and cut after [`ECHO_LIMIT`] characters
/// (`…` and the input's length follow), so that a huge input does not make a huge message.
pub fn echo(s: &str) -> String {
    echo_within(s, ECHO_LIMIT)
}

/// `s` escaped and, past `limit` characters, cut: `…` and ` (N characters)` follow, N the
/// length of `s` as given.
pub fn echo_within(s: &str, limit: usize) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == limit {
            out.push_str(&format!("… ({} characters)", s.chars().count()));
            break;
        }
        push_shown(&mut out, c);
    }
    out
}

/// `s` with every character [`needs_escape`] names escaped but the line feed: a report of
/// several lines whose contents came from outside.
pub fn escape_lines(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push(c),
            c => push_shown(&mut out, c),
        }
    }
    out
}

/// A message as one line: every character [`needs_escape`] names escaped (line endings
/// included), and every run of more than [`ECHO_LIMIT`] characters without a space (an input
/// quoted whole by a library's message) cut as [`echo`] cuts it.
pub fn one_line(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len().min(4096));
    let mut run = String::new();
    for c in msg.chars().chain(std::iter::once(' ')) {
        if c == ' ' {
            out.push_str(&echo_run(&run));
            run.clear();
            out.push(c);
        } else {
            run.push(c);
        }
    }
    out.pop();
    out
}

/// A run of a message without a space, echoed: the quotes and punctuation around it kept as
/// they are, the input inside them escaped and cut, so that its length is the input's own.
fn echo_run(run: &str) -> String {
    let inner = run.trim_start_matches(['\'', '"', '(', '`']);
    let inner = inner.trim_end_matches(['\'', '"', ')', '`', ',', ';', ':', '.']);
    let start = run.len() - run.trim_start_matches(['\'', '"', '(', '`']).len();
    let (head, tail) = (&run[..start], &run[start + inner.len()..]);
    format!(
        "{}{}{}",
        escape_lines(head),
        echo(inner),
        escape_lines(tail)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Escape sequences, bidirectional and invisible characters are shown as escapes; the rest
    /// of the text, other scripts included, stays as it is.
    #[test]
    fn what_acts_on_a_terminal_or_hides_is_shown_escaped() {
        assert_eq!(echo("e2\u{1b}[31m-e4\u{7}"), "e2\\u{1b}[31m-e4\\u{7}");
        assert_eq!(
            echo("a\u{202e}b\u{200b}c\u{feff}"),
            "a\\u{202e}b\\u{200b}c\\u{feff}"
        );
        assert_eq!(echo("\u{9b}2J\n\t"), "\\u{9b}2J\\n\\t");
        assert_eq!(echo("é ü 漢字 ♔"), "é ü 漢字 ♔");
        assert_eq!(escape_lines("a\nb\u{1b}"), "a\nb\\u{1b}");
    }

    /// An echoed input is cut after the stated length, its full length given.
    #[test]
    fn a_long_input_is_cut_with_its_length() {
        let long = "x".repeat(10_000);
        assert_eq!(
            echo(&long),
            format!("{}… (10000 characters)", "x".repeat(100))
        );
        assert_eq!(echo_within("abcdef", 3), "abc… (6 characters)");
        assert_eq!(echo(&"x".repeat(100)), "x".repeat(100));
    }

    /// A message is one line: its line endings escaped, each overlong run without a space
    /// (a quoted input) cut, the words around it kept.
    #[test]
    fn a_message_becomes_one_line_with_long_runs_cut() {
        let msg = format!("invalid value '{}' for '--engine'\n", "y".repeat(500));
        let line = one_line(&msg);
        assert!(line.starts_with("invalid value 'yyy"), "{line}");
        assert!(
            line.contains("… (500 characters)' for '--engine'\\n"),
            "{line}"
        );
        assert!(!line.contains('\n'));
        assert_eq!(one_line("a  b"), "a  b");
    }
}
