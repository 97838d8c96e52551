//! The command line's progress line and output writer (`src/cli/bar.rs`, `src/cli/out.rs`),
//! through the package's library target: progress people can read, the interruption message
//! kept on screen, and the closed-pipe rule of `out`.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ordo_cli::cli::bar::{grouped, line, span, Bar, Logging, State, View};
use ordo_cli::cli::out::{write_to, Written};
use ordo_solve::{Phase, Progress, RunWork, Stage};

fn step(what: &str, number: usize, before: u64) -> Stage {
    Stage {
        what: what.into(),
        number,
        of: 6,
        run: Some(RunWork {
            before,
            total: 10_000,
        }),
    }
}

/// Whole-number rates, the unit named (stored positions, not
/// "layers"), `slice k of n`, the phase's time left and the whole run's.
#[test]
fn the_progress_line_reads_as_words_and_whole_numbers() {
    let s = step("slice 3v2", 3, 4_000);
    let text = line(&View {
        step: Some(&s),
        phase: Phase::BUILDING,
        done: 1_234,
        total: Some(2_126),
        rate: Some(36_030.026_2),
        run: Some((5_234, 10_000)),
        run_rate: Some(1_000.4),
    });
    assert_eq!(
        text,
        "slice 3 of 6 (3v2), building; whole run 52% done, about 5 s left\n  \
         1,234 of 2,126 stored positions (58%), 36,030 a second, about 0 s left"
    );
    assert_eq!(span(4_000.0), "1 h 6 min");
    assert_eq!(span(200_000.0), "2 days 7 h");
    assert_eq!(grouped(1_000_000), "1,000,000");
}

/// A step's counts are its own: right after slice 2v1 begins, the
/// line names 2v1 with none of 1v1's counts, and its first count starts it from zero
/// (the whole run's share carries the finished slice).
#[test]
fn each_slice_counts_under_its_own_name() {
    let mut st = State::default();
    st.begin(&step("slice 1v1", 1, 0));
    st.update(Phase::BUILDING, 0, Some(147));
    let last = st.update(Phase::BUILDING, 147, Some(147));
    assert!(last.starts_with("slice 1 of 6 (1v1), building"), "{last}");
    assert!(
        last.contains("147 of 147 stored positions (100%)"),
        "{last}"
    );
    st.begin(&step("slice 2v1", 2, 147));
    let next = st.update(Phase::BUILDING, 0, Some(714));
    assert!(next.starts_with("slice 2 of 6 (2v1), building"), "{next}");
    assert!(next.contains(" 0 of 714 stored positions"), "{next}");
    assert!(!next.contains("147 of"), "{next}");
    assert!(next.contains("whole run 1% done"), "{next}");
    st.update(Phase::BUILDING, 714, Some(714));
    // Its verification follows the build: the run counts both.
    let v = st.update(Phase::VERIFYING, 300, Some(714));
    assert!(v.contains("verifying; ") && v.contains("300 of 714"), "{v}");
    assert!(v.contains("whole run 11% done"), "{v}");
}

/// A terminal in memory: every write and clear, in order.
#[derive(Debug, Clone)]
struct Screen(Arc<Mutex<Vec<String>>>);

impl indicatif::TermLike for Screen {
    fn width(&self) -> u16 {
        200
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.0.lock().unwrap().push(format!("up {n}"));
        Ok(())
    }
    fn move_cursor_down(&self, _n: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _n: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _n: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.0.lock().unwrap().push(format!("line {s}"));
        Ok(())
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.0.lock().unwrap().push(format!("str {s}"));
        Ok(())
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.0.lock().unwrap().push("clear".into());
        Ok(())
    }
    fn flush(&self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The interruption message comes after the bar is cleared, and
/// nothing of the bar is drawn after it (on a terminal it used to be drawn over, erasing
/// the checkpoint's path and how to resume).
#[test]
fn the_interruption_message_stays_on_screen() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let screen = Screen(log.clone());
    let said = log.clone();
    let bar = Bar::with(
        indicatif::ProgressDrawTarget::term_like(Box::new(screen)),
        Arc::new(move |t: &str| said.lock().unwrap().push(format!("said {t}"))),
    );
    bar.begin(&step("slice 4v4", 6, 0));
    bar.update(Phase::BUILDING, 10, Some(100));
    bar.tick();
    bar.say_after("ordo: interrupted: kept in t.partial; the same command resumes there");
    std::thread::sleep(Duration::from_millis(600));
    let log = log.lock().unwrap();
    let at = log.iter().position(|l| l.starts_with("said ")).unwrap();
    assert!(
        log[..at]
            .iter()
            .any(|l| l.contains("slice 6 of 6 (4v4), building")),
        "the bar was never drawn: {log:?}"
    );
    assert!(log[..at].iter().any(|l| l == "clear"), "{log:?}");
    assert_eq!(at, log.len() - 1, "drawn after the message: {log:?}");
}

/// A run whose stderr is no terminal (under `nohup`, a scheduler, a pipe) logs plain lines:
/// the progress line flattened, when a step or phase starts and then once a period, each
/// with the step's own name, and nothing while the run is younger than its quiet time
/// (progress people can read, in a log too).
#[test]
fn a_run_without_a_terminal_logs_its_progress_once_a_period() {
    let said = Arc::new(Mutex::new(Vec::<String>::new()));
    let to = said.clone();
    let say = Arc::new(move |t: &str| to.lock().unwrap().push(t.to_string()));
    let hourly = Logging {
        quiet: Duration::ZERO,
        every: Duration::from_secs(3600),
    };
    let bar = Bar::logging(hourly, say);
    bar.begin(&step("slice 4v4", 5, 0));
    bar.update(Phase::BUILDING, 10, Some(100));
    bar.update(Phase::BUILDING, 20, Some(100));
    bar.update(Phase::VERIFYING, 5, Some(100));
    bar.begin(&step("slice 5v1", 6, 0));
    bar.update(Phase::VERIFYING, 0, Some(50));
    let said = said.lock().unwrap();
    assert_eq!(
        said.len(),
        3,
        "one line a phase within the period: {said:?}"
    );
    assert!(
        said[0].starts_with("ordo: slice 5 of 6 (4v4), building"),
        "{said:?}"
    );
    assert!(
        said[0].contains(": 10 of 100 stored positions (10%)"),
        "{said:?}"
    );
    assert!(said[1].contains("(4v4), verifying"), "{said:?}");
    assert!(
        said[2].contains("slice 6 of 6 (5v1), verifying"),
        "{said:?}"
    );
    assert!(said.iter().all(|l| !l.contains('\n')), "{said:?}");
    let lines = |when: Logging| {
        let n = Arc::new(Mutex::new(0));
        let to = n.clone();
        let bar = Bar::logging(when, Arc::new(move |_: &str| *to.lock().unwrap() += 1));
        for done in 0..4 {
            bar.update(Phase::BUILDING, done, Some(4));
        }
        let n = *n.lock().unwrap();
        n
    };
    let every = Duration::ZERO;
    let quiet = Duration::from_secs(3600);
    let each = lines(Logging {
        quiet: Duration::ZERO,
        every,
    });
    assert_eq!(each, 4, "a line each period");
    assert_eq!(
        lines(Logging { quiet, every }),
        0,
        "a short run logs nothing"
    );
}

struct Failing(io::ErrorKind);

impl Write for Failing {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::from(self.0))
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_closed_pipe_is_told_from_other_failures() {
    let mut v = Vec::new();
    assert!(matches!(write_to(&mut v, "abc"), Written::Done));
    assert_eq!(v, b"abc");
    let closed = write_to(&mut Failing(io::ErrorKind::BrokenPipe), "x");
    assert!(matches!(closed, Written::Closed));
    let full = write_to(&mut Failing(io::ErrorKind::Other), "x");
    assert!(matches!(full, Written::Failed(_)));
}
