//! Slices as independent jobs and their graph for a scheduler (crates/solve/src/plan.rs, `ordo tb
//! job`, `ordo tb plan`): the parents a capture leads into, jobs that read only those and
//! build what `tb build` builds, a job run twice, a job refused for a missing or damaged
//! parent, and the Slurm, make and JSON plans run through a stand-in scheduler.
//! The library's side of the graph is in crates/solve/tests/solver/plan.rs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{assert_ok, ordo_cmd as ordo};

use ordo_bitboard::Bitboard;
use ordo_core::rules::{Dims, Variant};
use ordo_solve::{BuildOptions, Material, SliceReport};
use ordo_solve::{CompactSliceSolver, JobError, SliceSolver};
use ordo_solve::{Progress, Silent, SolveError};
use ordo_testkit::retro::{tb, Retro};

const ORDO: &str = env!("CARGO_BIN_EXE_ordo");

fn mat(white: u32, black: u32) -> Material {
    Material { white, black }
}

fn board(s: &str) -> Dims {
    s.parse().expect("test board")
}

/// `ordo tb job --board 4x4 --material 2,2 --dir DIR` with `extra` arguments.
fn job_2v2(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["tb", "job", "--board", "4x4", "--material", "2,2", "--dir"];
    args.push(dir.to_str().expect("a UTF-8 path"));
    args.extend(extra);
    ordo(&args)
}

/// The retro solver's build (`ordo_testkit::retro::tb`) of every slice up to `max` in `dir`,
/// the reference its jobs must equal.
fn build_locally(dims: Dims, variant: Variant, max: Material, dir: &Path) {
    let opts = BuildOptions::default();
    std::fs::create_dir_all(dir).expect("create the local folder");
    tb::build::<Bitboard>(dims, variant, max, dir, &opts, |_| {}).expect("tb build");
}

/// The compact `tb build` of every slice up to `max` in `dir`.
fn build_compact_locally(dims: Dims, variant: Variant, max: Material, dir: &Path) {
    let opts = BuildOptions::default();
    ordo_solve::build_slices::<Bitboard>(dims, variant, max, dir, &opts, |_| {})
        .expect("compact tb build");
}

/// One retro job as on a machine of its own: a fresh solver that knows nothing but the folder.
fn job(dims: Dims, variant: Variant, m: Material, dir: &Path) -> Result<SliceReport, JobError> {
    let mut solver = Retro::<Bitboard>::new(dims, variant, None);
    ordo_solve::run_job(&mut solver, dir, m, None, &Silent)
}

/// A table file's header (less the run's wall time and peak memory) and its payload: what
/// two builds of one slice must share byte for byte.
fn table_identity(path: &Path) -> (Vec<u8>, serde_json::Value, Vec<u8>) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = bytes.splitn(4, |&b| b == b'\n');
    let magic = lines.next().expect("first line").to_vec();
    let mut header: serde_json::Value =
        serde_json::from_slice(lines.next().expect("header line")).expect("header JSON");
    let _checksum = lines.next().expect("checksum line");
    let payload = lines.next().expect("payload").to_vec();
    let fields = header.as_object_mut().expect("header object");
    fields.remove("solve_ms");
    fields.remove("peak_memory");
    (magic, header, payload)
}

fn table_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ordotb"))
        .collect();
    names.sort();
    names
}

/// Every table file of `local` is in `jobs`, the same table, and no other is there.
fn assert_same_tables(local: &Path, jobs: &Path) {
    let names = table_files(local);
    assert!(!names.is_empty(), "no tables in {}", local.display());
    assert_eq!(names, table_files(jobs), "the same slices");
    for n in &names {
        assert!(
            table_identity(&local.join(n)) == table_identity(&jobs.join(n)),
            "{n} differs between the local build and the jobs"
        );
    }
}

/// Every job of the graph up to 3v3 on 4x4, in both games, each run by a fresh solver from
/// `fresh` (as on a machine of its own) in a folder of their own, builds its slice, and the
/// files equal those `local` builds in another folder.
fn jobs_build_what_the_local_build_builds<S: SliceSolver>(
    tag: &str,
    fresh: impl Fn(Dims, Variant) -> S,
    local: fn(Dims, Variant, Material, &Path),
) {
    for variant in [Variant::Classic, Variant::X] {
        let dims = board("4x4");
        let root = crate::common::scratch(&format!("{tag}-{}", variant.name()));
        let (here, jobs) = (root.join("local"), root.join("jobs"));
        std::fs::create_dir_all(&jobs).unwrap();
        local(dims, variant, mat(3, 3), &here);
        for j in ordo_solve::job_graph(&fresh(dims, variant), mat(3, 3)) {
            let r =
                ordo_solve::run_job(&mut fresh(dims, variant), &jobs, j.material, None, &Silent)
                    .unwrap_or_else(|e| panic!("{variant} job {}: {e}", j.material));
            assert!(r.built, "{} built", j.material);
        }
        assert_same_tables(&here, &jobs);
    }
}

/// Jobs that each read only their parents' files build the tables `tb build` builds, in
/// both games (the parents are enough: a capture into any other slice would fail the job).
#[test]
fn jobs_reading_only_their_parents_build_what_tb_build_builds() {
    let fresh = |dims, variant| Retro::<Bitboard>::new(dims, variant, None);
    jobs_build_what_the_local_build_builds("plan-jobs", fresh, build_locally);
}

/// Compact jobs, each reading only the files its job names, write the same files (every
/// payload byte, the header less its wall time and memory) as the compact `tb build`, in
/// both games.
#[test]
fn compact_jobs_build_what_the_compact_tb_build_builds() {
    let fresh = |dims, variant| CompactSliceSolver::<Bitboard>::new(dims, variant);
    jobs_build_what_the_local_build_builds("plan-compact", fresh, build_compact_locally);
}

/// A [`SliceSolver`] that reads only the slices `needs` names and is `S` otherwise.
struct Narrow<S> {
    inner: S,
    needs: fn(Material) -> Vec<Material>,
}

impl<S: SliceSolver> SliceSolver for Narrow<S> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn materials(&self, max: Material) -> Vec<Material> {
        self.inner.materials(max)
    }
    fn path(&self, dir: &Path, m: Material) -> PathBuf {
        self.inner.path(dir, m)
    }
    fn game(&self) -> (Variant, Dims) {
        self.inner.game()
    }
    fn needs(&self, m: Material) -> Vec<Material> {
        (self.needs)(m)
    }
    fn estimate(&self, m: Material) -> Result<u64, SolveError> {
        self.inner.estimate(m)
    }
    fn load(&mut self, dir: &Path, m: Material) -> Result<SliceReport, SolveError> {
        self.inner.load(dir, m)
    }
    fn build(
        &mut self,
        dir: &Path,
        m: Material,
        progress: &dyn Progress,
    ) -> Result<SliceReport, SolveError> {
        self.inner.build(dir, m, progress)
    }
}

/// ORDOX-4.1 matters to the graph: an Ordo X 3v3 job that reads only the slices with one
/// piece fewer fails, since a capture there can leave one piece of three.
#[test]
fn ordo_x_jobs_need_the_slices_two_pieces_down_ordox_4_1() {
    let dims = board("4x4");
    let dir = crate::common::scratch("plan-x-narrow");
    build_locally(dims, Variant::X, mat(3, 2), &dir);
    build_locally(dims, Variant::X, mat(2, 3), &dir);
    // The classic parents: one piece fewer.
    let mut narrow = Narrow {
        inner: Retro::<Bitboard>::new(dims, Variant::X, None),
        needs: |m| ordo_solve::parents(Variant::Classic, m),
    };
    let err = ordo_solve::run_job(&mut narrow, &dir, mat(3, 3), None, &Silent)
        .expect_err("a capture leads into a slice the narrow job did not read")
        .to_string();
    assert!(
        err.contains("1v3") || err.contains("3v1"),
        "the missing slice named: {err}"
    );
    assert!(!narrow.path(&dir, mat(3, 3)).exists(), "nothing written");
}

/// A job run again finds its valid file and leaves it untouched; a damaged own file is
/// built again.
#[test]
fn a_job_run_twice_changes_nothing_and_a_damaged_own_file_is_rebuilt() {
    let dims = board("4x4");
    let dir = crate::common::scratch("plan-idempotent");
    build_locally(dims, Variant::Classic, mat(2, 1), &dir);
    build_locally(dims, Variant::Classic, mat(1, 2), &dir);
    let first = job(dims, Variant::Classic, mat(2, 2), &dir).expect("first run");
    assert!(first.built);
    let path = tb::RetroTablebase::path(&dir, Variant::Classic, dims, mat(2, 2));
    let bytes = std::fs::read(&path).unwrap();
    let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
    let again = job(dims, Variant::Classic, mat(2, 2), &dir).expect("second run");
    assert!(!again.built, "the second run builds nothing");
    assert_eq!(again.counts, first.counts);
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), mtime);
    // One payload byte changed: the checksum fails, the job builds the slice again.
    let mut damaged = bytes.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x55;
    std::fs::write(&path, &damaged).unwrap();
    let rebuilt = job(dims, Variant::Classic, mat(2, 2), &dir).expect("rebuild");
    assert!(rebuilt.built);
    assert_eq!(table_identity(&path).2, table_identity_of(&bytes).2);
}

fn table_identity_of(bytes: &[u8]) -> (Vec<u8>, serde_json::Value, Vec<u8>) {
    let dir = crate::common::scratch("plan-identity");
    let p = dir.join("t.ordotb");
    std::fs::write(&p, bytes).unwrap();
    table_identity(&p)
}

/// A job whose parents are not built is refused with every missing file named and writes
/// nothing (on the command line: `compact_jobs_refuse_missing_or_damaged_parents_...`).
#[test]
fn a_job_without_its_parents_is_refused_and_writes_nothing() {
    let dims = board("4x4");
    let dir = crate::common::scratch("plan-missing");
    build_locally(dims, Variant::Classic, mat(1, 2), &dir);
    let err = job(dims, Variant::Classic, mat(2, 2), &dir).expect_err("2v1 is missing");
    match &err {
        JobError::MissingParents { missing, .. } => {
            assert_eq!(missing, &vec!["tb-classic-4x4-2v1.ordotb".to_string()])
        }
        e => panic!("wrong refusal: {e}"),
    }
    assert!(!tb::RetroTablebase::path(&dir, Variant::Classic, dims, mat(2, 2)).exists());
}

/// A job whose parent's file is damaged is refused with the parent and the reason named and
/// writes nothing (on the command line: `compact_jobs_refuse_missing_or_damaged_parents_...`).
#[test]
fn a_job_with_a_damaged_parent_is_refused_and_writes_nothing() {
    let dims = board("4x4");
    let dir = crate::common::scratch("plan-damaged");
    build_locally(dims, Variant::Classic, mat(2, 1), &dir);
    build_locally(dims, Variant::Classic, mat(1, 2), &dir);
    let parent = tb::RetroTablebase::path(&dir, Variant::Classic, dims, mat(2, 1));
    let mut bytes = std::fs::read(&parent).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&parent, &bytes).unwrap();
    match job(dims, Variant::Classic, mat(2, 2), &dir).expect_err("2v1 is damaged") {
        JobError::DamagedParent {
            parent: p, source, ..
        } => {
            assert_eq!(p, mat(2, 1));
            assert!(source.to_string().contains("checksum"), "{source}");
        }
        e => panic!("wrong refusal: {e}"),
    }
    assert!(!tb::RetroTablebase::path(&dir, Variant::Classic, dims, mat(2, 2)).exists());
}

/// Compact jobs on the command line (the default solver): a job whose parent is missing
/// names it and exits 2, one whose parent is damaged names it and the reason, neither
/// writes anything; a job run again says "already built" and leaves its file untouched;
/// a damaged own file is built again, to the same bytes.
#[test]
fn compact_jobs_refuse_missing_or_damaged_parents_and_run_twice_unchanged() {
    let dims = board("4x4");
    let dir = crate::common::scratch("plan-compact-cli");
    let own = ordo_solve::slice_path(&dir, Variant::Classic, dims, mat(2, 2));
    let run = || job_2v2(&dir, &[]);
    build_compact_locally(dims, Variant::Classic, mat(1, 1), &dir);
    let o = run();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("ordo: error"))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(errors[0].contains("ctb-classic-4x4-2v1.ordotb"), "{stderr}");
    assert!(errors[0].contains(dir.to_str().unwrap()), "{stderr}");
    assert!(!own.exists());
    build_compact_locally(dims, Variant::Classic, mat(2, 1), &dir);
    let parent = ordo_solve::slice_path(&dir, Variant::Classic, dims, mat(2, 1));
    let good = std::fs::read(&parent).unwrap();
    let mut bad = good.clone();
    *bad.last_mut().unwrap() ^= 1;
    std::fs::write(&parent, &bad).unwrap();
    let o = run();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("2v1") && stderr.contains("checksum"),
        "{stderr}"
    );
    assert!(!own.exists());
    std::fs::write(&parent, &good).unwrap();
    let first = run();
    assert_ok(&first);
    assert!(String::from_utf8_lossy(&first.stdout).contains(": built: "));
    let (bytes, mtime) = (
        std::fs::read(&own).unwrap(),
        std::fs::metadata(&own).unwrap().modified().unwrap(),
    );
    let again = run();
    assert!(String::from_utf8_lossy(&again.stdout).contains(": already built: "));
    assert_eq!(std::fs::read(&own).unwrap(), bytes);
    assert_eq!(std::fs::metadata(&own).unwrap().modified().unwrap(), mtime);
    let mut damaged = bytes.clone();
    *damaged.last_mut().unwrap() ^= 0x55;
    std::fs::write(&own, &damaged).unwrap();
    let rebuilt = run();
    assert!(String::from_utf8_lossy(&rebuilt.stdout).contains(": built: "));
    assert_eq!(table_identity(&own), table_identity_of(&bytes));
}

/// A compact job that read only the slices one capture leads into would meet a shell
/// position there whose own captures lead further down (ORDO-6.4): the build fails naming
/// the slice it lacks, which is why the compact graph waits for every ancestor.
#[test]
fn a_compact_job_reading_only_direct_parents_fails_ordo_6_4() {
    let dims = board("4x4");
    let dir = crate::common::scratch("plan-compact-direct");
    build_compact_locally(dims, Variant::Classic, mat(3, 2), &dir);
    let mut direct = Narrow {
        inner: CompactSliceSolver::<Bitboard>::new(dims, Variant::Classic),
        needs: |m| {
            let mut v: Vec<Material> = ordo_solve::parents(Variant::Classic, m)
                .into_iter()
                .map(ordo_solve::stored_material)
                .collect();
            v.dedup();
            v
        },
    };
    assert_eq!(direct.needs(mat(3, 3)), vec![mat(3, 2)]);
    let err = ordo_solve::run_job(&mut direct, &dir, mat(3, 3), None, &Silent)
        .expect_err("a chain of captures leads below 3v2")
        .to_string();
    assert!(err.contains("not built"), "{err}");
    assert!(!direct.path(&dir, mat(3, 3)).exists(), "nothing written");
}

/// A stand-in `sbatch` on PATH: records each submission's arguments (one a line) in
/// `args-N` and answers job id N the way `--parsable` does on a federation (`N;cluster`).
fn fake_sbatch(root: &Path) -> PathBuf {
    let bin = root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = format!(
        "#!/bin/sh\nn=$(( $(cat '{0}/count' 2>/dev/null || echo 100) + 1 ))\necho $n > '{0}/count'\nprintf '%s\\n' \"$@\" > '{0}/args-'$n\necho \"$n;test\"\n",
        root.display()
    );
    let path = bin.join("sbatch");
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

/// The Slurm plan (compact, the default) submits every stored slice once, after the job ids
/// of the slices it reads, and running the submitted commands in submission order builds
/// what `tb build` builds.
#[test]
fn the_slurm_plan_submits_each_job_after_its_parents() {
    let root = crate::common::scratch("plan-slurm");
    let (tables, local) = (root.join("tables"), root.join("local"));
    let d = tables.to_str().unwrap();
    let o = ordo(&[
        "tb",
        "plan",
        "--variant",
        "x",
        "--board",
        "4x4",
        "--max-pieces",
        "3,2",
        "--dir",
        d,
    ]);
    assert_ok(&o);
    let script = root.join("plan.sh");
    std::fs::write(&script, &o.stdout).unwrap();
    let bin = fake_sbatch(&root);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = Command::new("bash")
        .arg(&script)
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // Each line: the job's name and its id, the cluster suffix dropped.
    let ids: Vec<(String, String)> = String::from_utf8_lossy(&run.stdout)
        .lines()
        .map(|l| {
            let (n, id) = l.split_once(' ').expect("NAME ID");
            (n.to_string(), id.to_string())
        })
        .collect();
    let graph = ordo_solve::job_graph(
        &CompactSliceSolver::<Bitboard>::new(board("4x4"), Variant::X),
        mat(3, 2),
    );
    let names: Vec<String> = graph.iter().map(|j| j.material.to_string()).collect();
    assert_eq!(
        ids.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(),
        names
    );
    let id_of = |m: &Material| {
        ids.iter()
            .find(|(n, _)| *n == m.to_string())
            .unwrap()
            .1
            .clone()
    };
    for (j, (_, id)) in graph.iter().zip(&ids) {
        let args = std::fs::read_to_string(root.join(format!("args-{id}"))).unwrap();
        let want: Vec<String> = j.parents.iter().map(id_of).collect();
        let dep = args
            .lines()
            .find_map(|l| l.strip_prefix("--dependency=afterok:"));
        match dep {
            Some(d) => assert_eq!(d.split(':').map(String::from).collect::<Vec<_>>(), want),
            None => assert!(want.is_empty(), "{}: no dependency given", j.material),
        }
        assert!(args.lines().any(|l| l == "--parsable"));
        let wrap = args
            .lines()
            .find_map(|l| l.strip_prefix("--wrap="))
            .expect("--wrap");
        let done = Command::new("sh").arg("-c").arg(wrap).output().unwrap();
        assert!(
            done.status.success(),
            "{wrap}: {}",
            String::from_utf8_lossy(&done.stderr)
        );
    }
    build_compact_locally(board("4x4"), Variant::X, mat(3, 2), &local);
    assert_same_tables(&local, &tables);
}

/// `ordo tb plan --board 3x4 --setup row1 --format make` with `extra` arguments, run by
/// `make -j2` in a scratch folder: the makefile, the tables' folder and make's stderr (the
/// jobs' lines); `None` if make is not installed.
fn run_game_make_plan(tag: &str, extra: &[&str]) -> Option<(PathBuf, PathBuf, String)> {
    let root = crate::common::scratch(tag);
    let tables = root.join("tables");
    let mut args = vec!["tb", "plan", "--board", "3x4", "--setup", "row1"];
    args.extend(["--format", "make", "--dir", tables.to_str().unwrap()]);
    args.extend(extra);
    let o = ordo(&args);
    assert_ok(&o);
    let mk = root.join("plan.mk");
    std::fs::write(&mk, &o.stdout).unwrap();
    let Ok(run) = Command::new("make")
        .args(["-s", "-j2", "-f"])
        .arg(&mk)
        .output()
    else {
        eprintln!("make is not installed: the make plan is not run");
        return None;
    };
    let log = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success(), "{log}");
    Some((mk, tables, log))
}

/// `ordo tb plan --board 5x5 --max-pieces 3,2 --format json --dir /shared/t` with `extra`
/// arguments, parsed.
fn json_plan(extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["tb", "plan", "--board", "5x5", "--max-pieces", "3,2"];
    args.extend(["--format", "json", "--dir", "/shared/t"]);
    args.extend(extra);
    let o = ordo(&args);
    assert_ok(&o);
    serde_json::from_slice(&o.stdout).expect("JSON")
}

/// A JSON array of strings.
fn words(v: &serde_json::Value) -> Vec<&str> {
    let a = v.as_array().expect("an array");
    a.iter().map(|w| w.as_str().expect("a string")).collect()
}

/// The JSON plan lists each job with its command; the library's graph gives each job its
/// parents and its file, for the retro solver's slices (every material, one capture down) as
/// for the compact ones.
#[test]
fn the_json_plan_lists_every_job_with_its_parents() {
    let retro = Retro::<Bitboard>::new(board("5x5"), Variant::Classic, None);
    let jobs = ordo_solve::job_graph(&retro, mat(3, 2));
    assert_eq!(jobs.len(), 6);
    let j = jobs.iter().find(|j| j.material == mat(3, 2)).expect("3v2");
    assert_eq!(j.parents, [mat(2, 2), mat(3, 1)]);
    let file = retro.path(Path::new("/shared/t"), mat(3, 2));
    assert_eq!(file, Path::new("/shared/t/tb-classic-5x5-3v2.ordotb"));
    let v = json_plan(&[]);
    let j = &v["jobs"][4];
    assert_eq!(j["name"], "3v2");
    let cmd = words(&j["command"]);
    assert_eq!(&cmd[1..3], &["tb", "job"]);
    assert!(cmd.windows(2).any(|w| w == ["--material", "3,2"]));
    assert!(j["memory_bytes"].as_u64().unwrap() > 64 << 20);
    let bad = ordo(&["tb", "plan", "--max-pieces", "0,2"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// The compact plan (the default) has a job per stored slice only (1v2 is 2v1's colour
/// twin), each waiting for every stored slice a chain of captures leads into.
#[test]
fn the_compact_json_plan_has_stored_slices_only() {
    let v = json_plan(&[]);
    assert_eq!(v["solver"], "compact");
    let names: Vec<&str> = v["jobs"]
        .as_array()
        .expect("jobs")
        .iter()
        .map(|j| j["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["1v1", "2v1", "2v2", "3v1", "3v2"]);
    let j = &v["jobs"][4];
    assert_eq!(
        j["parents"],
        serde_json::json!(["1v1", "2v1", "2v2", "3v1"])
    );
    assert_eq!(j["output"], "/shared/t/ctb-classic-5x5-3v2.ordotb");
    let cmd = words(&j["command"]);
    assert!(!cmd.contains(&"--solver"), "{cmd:?}");
    // Each job's stored bytes are its slice's, counted; the plan's are their sum.
    let mut tables = ordo_solve::CompactTables::new(board("5x5"), Variant::Classic);
    let mut sum = 0;
    for (j, name) in v["jobs"].as_array().unwrap().iter().zip(names) {
        let (w, b) = name.split_once('v').unwrap();
        let m = mat(w.parse().unwrap(), b.parse().unwrap());
        let entries = tables.core_size(m).unwrap().entries;
        assert_eq!(j["stored_bytes"], entries, "{name}");
        assert_eq!(j["sized"], "counted", "{name}");
        assert!(j.get("standard_error").is_none() && j.get("beyond").is_none());
        sum += entries;
    }
    assert_eq!(v["stored_bytes"], sum);
    assert_eq!(v["jobs_beyond"], 0);
}

/// The compact make plan of a small board's game: a job per stored material writing into
/// the game table's `.partial` folder, then `ordo solve` assembling the game file from them.
/// The game file equals a local `ordo solve`'s (payload and header less time and memory),
/// the folder is gone, and the report's verdict is `ordo solve`'s.
#[test]
fn the_compact_make_plan_of_a_game_assembles_the_file_of_ordo_solve() {
    let Some((mk, tables, log)) = run_game_make_plan("plan-make-compact", &[]) else {
        return;
    };
    let root = mk.parent().unwrap();
    // Each job says on stderr what it does: the slice, what it reads, positions and rate.
    for line in [
        "ordo tb job: classic 3x4 3v3: read slice 3v2",
        "ordo tb job: classic 3x4 3v3: built ",
    ] {
        assert!(log.contains(line), "'{line}' missing from {log}");
    }
    assert!(log.contains("entries a second"), "{log}");
    let game = tables.join("ctb-classic-3x4-row1.ordotb");
    assert!(
        !ordo_solve::partial_dir(&game).exists(),
        "the slices' folder is removed"
    );
    // Up to date: the slices removed are not built again.
    let again = Command::new("make")
        .args(["-q", "-f"])
        .arg(&mk)
        .status()
        .unwrap();
    assert!(again.success(), "make -q: the plan is done");
    let local = root.join("local.ordotb");
    let solve = ordo(
        &["solve", "--board", "3x4", "--setup", "row1", "--table"]
            .iter()
            .copied()
            .chain([local.to_str().unwrap()])
            .collect::<Vec<_>>(),
    );
    assert_eq!(solve.status.code(), Some(0));
    assert!(
        table_identity(&game) == table_identity(&local),
        "game files differ"
    );
    let report = std::fs::read_to_string(tables.join("game-classic-3x4-row1.txt")).unwrap();
    let solve = String::from_utf8_lossy(&solve.stdout);
    assert_eq!(report.lines().next(), solve.lines().next());
}

/// Which reports of a phase mark a layer group boundary: the phase's first report in a
/// step (before any group) and each report that repeats the last count (the build and the
/// verification report each layer of a group as it ends, then the group's end, with the
/// count of its last layer).
#[derive(Default)]
struct Boundaries(std::sync::Mutex<Option<u64>>);

impl Boundaries {
    /// Whether the report of `done` marks a boundary.
    fn at(&self, done: u64) -> bool {
        let mut last = self.0.lock().unwrap();
        let boundary = last.is_none_or(|l| l == done);
        *last = Some(done);
        boundary
    }
    /// A new step: its first report marks a boundary.
    fn begin(&self) {
        *self.0.lock().unwrap() = None;
    }
}

/// A [`Progress`] that asks to stop once `after` layer groups are done (its group
/// [`Boundaries`], the first of which comes before any group), and keeps the notes and the
/// first count it hears.
struct StopAfter {
    after: Option<u64>,
    /// Count only the groups of the piece of work `begin` names so (`slice 4v4`).
    only: Option<&'static str>,
    current: std::sync::Mutex<String>,
    groups: std::sync::atomic::AtomicU64,
    first: std::sync::Mutex<Option<u64>>,
    notes: std::sync::Mutex<Vec<String>>,
    boundaries: Boundaries,
}

impl StopAfter {
    fn new(after: Option<u64>) -> StopAfter {
        StopAfter {
            after,
            only: None,
            current: Default::default(),
            groups: Default::default(),
            first: Default::default(),
            notes: Default::default(),
            boundaries: Default::default(),
        }
    }
    fn notes(&self) -> String {
        self.notes.lock().unwrap().join("\n")
    }
}

impl Progress for StopAfter {
    fn update(&self, phase: ordo_solve::Phase, done: u64, _total: Option<u64>) {
        let counted = match self.only {
            Some(o) => *self.current.lock().unwrap() == o,
            None => true,
        };
        if phase == ordo_solve::Phase::BUILDING && counted {
            self.first.lock().unwrap().get_or_insert(done);
            if self.boundaries.at(done) {
                self.groups
                    .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        }
    }
    fn note(&self, text: &str) {
        self.notes.lock().unwrap().push(text.to_string());
    }
    fn begin(&self, step: &ordo_solve::Stage) {
        *self.current.lock().unwrap() = step.what.clone();
        self.boundaries.begin();
    }
    fn stop_requested(&self) -> bool {
        let seen = self.groups.load(std::sync::atomic::Ordering::SeqCst);
        self.after.is_some_and(|n| seen > n)
    }
}

fn compact_build(dir: &Path, max: Material, progress: &dyn Progress) -> Result<(), SolveError> {
    let opts = BuildOptions {
        progress,
        ..BuildOptions::default()
    };
    ordo_solve::build_slices::<Bitboard>(board("4x4"), Variant::Classic, max, dir, &opts, |_| {})
        .map(|_| ())
}

/// A build stopped after two layer groups of its last slice keeps them in the slice's
/// checkpoint (`FILE.partial`) and writes no slice file; run again, it resumes after those
/// groups and writes the same files as a build never stopped, then removes the checkpoint.
/// A checkpoint with one byte changed is not used (said, with the reason) and the slice is
/// built from the start, again to the same file.
#[test]
fn a_stopped_slice_build_resumes_after_its_finished_layers_to_the_same_file() {
    let root = crate::common::scratch("checkpoint-resume");
    let (local, dir) = (root.join("local"), root.join("stopped"));
    build_compact_locally(board("4x4"), Variant::Classic, mat(3, 3), &local);
    build_compact_locally(board("4x4"), Variant::Classic, mat(3, 2), &dir);
    let file = ordo_solve::slice_path(&dir, Variant::Classic, board("4x4"), mat(3, 3));
    let checkpoint = ordo_solve::partial_dir(&file);
    let stop = || {
        let stopper = StopAfter::new(Some(2));
        match compact_build(&dir, mat(3, 3), &stopper) {
            Err(SolveError::Interrupted(msg)) => {
                assert!(msg.contains("slice 3v3 stopped after 2 of "), "{msg}");
                assert!(msg.contains("kept in"), "{msg}");
            }
            r => panic!("not stopped: {r:?}"),
        }
        assert!(!file.exists() && checkpoint.exists());
    };
    // Build to the end: the same files as the local build; the note said; where it started.
    let finish = |note: &str| {
        let p = StopAfter::new(None);
        compact_build(&dir, mat(3, 3), &p).expect("finished build");
        assert!(p.notes().contains(note), "{}", p.notes());
        assert_same_tables(&local, &dir);
        let first = *p.first.lock().unwrap();
        first.expect("layers reported")
    };
    stop();
    assert!(
        finish("resuming slice 3v3 from") > 0,
        "started after the kept groups"
    );
    assert!(!checkpoint.exists(), "the checkpoint is removed");
    std::fs::remove_file(&file).unwrap();
    stop();
    let mut bytes = std::fs::read(&checkpoint).unwrap();
    *bytes.last_mut().unwrap() ^= 0x21;
    std::fs::write(&checkpoint, &bytes).unwrap();
    assert_eq!(
        finish("not used: checksum mismatch"),
        0,
        "built from the first group"
    );
}

/// A game solve (`ordo solve`'s compact path) stopped after three layer groups of its
/// largest slice keeps its finished slices and those groups in `TABLE.partial/`; run again,
/// it resumes there and writes the game file of an uninterrupted solve, then removes the
/// folder. A checkpoint that says it is another slice's is not used, and said so.
#[test]
fn a_stopped_game_solve_resumes_in_its_partial_folder_to_the_same_file() {
    let root = crate::common::scratch("checkpoint-game");
    let solve = |table: &Path, progress: &dyn Progress| {
        let opts = ordo_solve::GameOptions {
            table: Some(table.to_path_buf()),
            progress,
            ..ordo_solve::GameOptions::default()
        };
        let (dims, setup) = (board("4x4"), ordo_solve::Setup::Row1);
        ordo_solve::solve_game::<Bitboard>(Variant::Classic, dims, setup, &opts).map(|_| ())
    };
    let (whole, table) = (root.join("whole.ordotb"), root.join("game.ordotb"));
    solve(&whole, &Silent).expect("uninterrupted solve");
    let partial = ordo_solve::partial_dir(&table);
    let checkpoint = partial.join("ctb-classic-4x4-4v4.ordotb.partial");
    let stop = || {
        let stopper = StopAfter {
            only: Some("slice 4v4"),
            ..StopAfter::new(Some(3))
        };
        match solve(&table, &stopper) {
            Err(SolveError::Interrupted(msg)) => {
                assert!(msg.contains("slice 4v4 stopped after 3 of "), "{msg}")
            }
            r => panic!("not stopped: {r:?}"),
        }
        assert!(checkpoint.exists() && !table.exists());
    };
    // Solved to the end from `progress`: the note said, the file of the uninterrupted solve.
    let finish = |note: &str| {
        let p = StopAfter::new(None);
        solve(&table, &p).expect("finished solve");
        assert!(p.notes().contains(note), "{}", p.notes());
        assert!(
            table_identity(&table) == table_identity(&whole),
            "the same game file"
        );
        assert!(!partial.exists(), "the folder is removed");
        std::fs::remove_file(&table).unwrap();
    };
    stop();
    finish("resuming slice 4v4 from");
    stop();
    let kept = String::from_utf8_lossy(&std::fs::read(&checkpoint).unwrap()).into_owned();
    let other = kept.replacen(r#""material":"4v4""#, r#""material":"4v3""#, 1);
    assert_ne!(kept, other);
    std::fs::write(&checkpoint, other).unwrap();
    finish("not used: it is of slice 4v3");
}

/// Ctrl-C (SIGINT) on a real `ordo tb build`, sent once the line of the slice before the
/// last is on stdout (each slice's line is written the moment it ends, not when the run
/// ends: the run must still be going when the 3v1 line is read): the build stops in (or
/// before) the last slice, keeps what it finished, says so in one line with how to resume,
/// exits with status 130 and writes no file of that slice; the same command then finishes
/// it and removes the checkpoint.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_tb_build_keeping_its_layers_and_the_same_command_finishes() {
    use std::process::Stdio;
    let dir = crate::common::scratch("checkpoint-sigint");
    let d = dir.to_str().unwrap();
    let args = [
        "tb",
        "build",
        "--board",
        "10x8",
        "--max-pieces",
        "3,2",
        "--dir",
        d,
    ];
    let at = |w, b| ordo_solve::slice_path(&dir, Variant::Classic, board("10x8"), mat(w, b));
    let mut child = Command::new(ORDO)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ordo");
    let mut read = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut shown = String::new();
    while !shown.contains("3v1 and 1v3: ") {
        let mut line = String::new();
        let n = std::io::BufRead::read_line(&mut read, &mut line).unwrap();
        assert!(n > 0, "stdout ended before the line of 3v1: {shown}");
        shown += &line;
    }
    assert!(
        child.try_wait().unwrap().is_none(),
        "the line of 3v1 came only when the run ended: {shown}"
    );
    assert!(at(3, 1).exists(), "the line of 3v1 follows its file");
    crate::common::press_ctrl_c(&child);
    let o = child.wait_with_output().unwrap();
    std::io::Read::read_to_string(&mut read, &mut shown).unwrap();
    assert!(
        !shown.contains("3v2"),
        "no line of the stopped slice: {shown}"
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].starts_with("ordo: interrupted: ")
            && lines[0].contains("3v2")
            && lines[0].ends_with("; the same command resumes there"),
        "{stderr}"
    );
    assert!(!at(3, 2).exists(), "no file of the stopped slice");
    let again = ordo(&args);
    assert_ok(&again);
    let out = String::from_utf8_lossy(&again.stdout);
    assert!(
        out.contains("3v1 and 1v3: ") && out.contains(", loaded"),
        "{out}"
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[lines.len() - 2].contains("built in"), "{out}");
    assert!(at(3, 2).exists() && !ordo_solve::partial_dir(&at(3, 2)).exists());
}

/// A plan with slices this version cannot build (on 8 x 8, 7v6 and 7v7 would hold 2^32
/// stored positions or more): the JSON plan sizes them (sampled, `--sample-pairs` made tiny
/// so that it takes seconds) and names why each is beyond; a Slurm or make plan, whose jobs
/// would fail, is refused with exit status 2 naming the first of them.
#[test]
fn a_plan_beyond_this_version_is_sized_in_json_and_refused_for_a_scheduler() {
    let args = ["tb", "plan", "--board", "8x8", "--max-pieces", "7,7"];
    let tail = ["--sample-pairs", "1024", "--dir", "/shared/t"];
    let json = ordo(&[&args[..], &tail, &["--format", "json"]].concat());
    assert_ok(&json);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let beyond: Vec<&str> = v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|j| {
            j["beyond"]
                .as_str()
                .is_some_and(|w| w.contains("2^32 or more"))
        })
        .map(|j| j["name"].as_str().unwrap())
        .collect();
    assert_eq!(beyond, ["7v6", "7v7"]);
    assert_eq!(v["jobs_beyond"], 2);
    assert_eq!(v["jobs"][27]["sized"], "sampled");
    for format in ["slurm", "make"] {
        let o = ordo(&[&args[..], &tail, &["--format", format]].concat());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("job 7v6 cannot be built by this version"),
            "{err}"
        );
        assert!(
            err.contains("--format json") && o.stdout.is_empty(),
            "{err}"
        );
    }
}

/// Stops once it has seen `after` group [`Boundaries`] of the verification.
struct StopVerifying {
    after: u64,
    seen: std::sync::atomic::AtomicU64,
    boundaries: Boundaries,
}

impl Progress for StopVerifying {
    fn update(&self, phase: ordo_solve::Phase, done: u64, _total: Option<u64>) {
        if phase == ordo_solve::Phase::VERIFYING && self.boundaries.at(done) {
            self.seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    }
    fn begin(&self, _step: &ordo_solve::Stage) {
        self.boundaries.begin();
    }
    fn stop_requested(&self) -> bool {
        self.seen.load(std::sync::atomic::Ordering::SeqCst) >= self.after
    }
}

/// A slice's report: its material, whether this run built it, its verdict.
type Reported = (String, bool, Option<bool>);

/// The compact build of classic 4 x 4 to 3v3 in `root`, verifying `scope` and asked to stop
/// once the verification has counted `after` times: its result, the slices' reports and
/// the counts of the verification.
fn build_stopping_verification(
    root: &Path,
    scope: ordo_solve::VerifyScope,
    after: u64,
) -> (Result<(), SolveError>, Vec<Reported>, u64) {
    let stop = StopVerifying {
        after,
        seen: Default::default(),
        boundaries: Default::default(),
    };
    let opts = BuildOptions {
        progress: &stop,
        verify: scope,
        ..BuildOptions::default()
    };
    let mut reports = Vec::new();
    let r = ordo_solve::build_slices::<Bitboard>(
        board("4x4"),
        Variant::Classic,
        mat(3, 3),
        root,
        &opts,
        |r| reports.push((r.stats.material.to_string(), r.built, r.verified)),
    );
    (r.map(|_| ()), reports, stop.seen.into_inner())
}

/// `tb build --verify` over slices already built (read from their files, then verified)
/// honours a stop (Ctrl-C, a scheduler's SIGTERM) between layer groups of a verification
/// and before the next slice to verify, where it used to verify every slice read before
/// looking; the files are left as they were.
#[test]
fn a_stop_during_the_verification_of_read_slices_is_honoured_at_once() {
    let root = crate::common::scratch("verify-stop");
    build_compact_locally(board("4x4"), Variant::Classic, mat(3, 3), &root);
    let files = || {
        let names = table_files(&root);
        let bytes: Vec<Vec<u8>> = names
            .iter()
            .map(|n| std::fs::read(root.join(n)).unwrap())
            .collect();
        (names, bytes)
    };
    let before = files();
    let run = |after| {
        let (r, _, seen) = build_stopping_verification(&root, ordo_solve::VerifyScope::All, after);
        (r, seen)
    };
    match run(2) {
        (Err(SolveError::Interrupted(msg)), seen) => {
            assert!(msg.contains("verification stopped in slice 1v1"), "{msg}");
            assert_eq!(
                seen, 2,
                "stopped at the first group boundary after the request"
            );
        }
        r => panic!("not stopped: {r:?}"),
    }
    let (r, _) = run(0);
    assert!(
        matches!(&r, Err(SolveError::Interrupted(m)) if m.contains("before slice 1v1")),
        "{r:?}"
    );
    assert!(run(u64::MAX).0.is_ok());
    assert_eq!(files(), before);
}

/// Rewrite the header of the checkpoint `path` through `edit`, its BLAKE3 recomputed (as an
/// older version wrote it, or as a forger would).
fn rewrite_checkpoint(path: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let bytes = std::fs::read(path).unwrap();
    let mut lines = bytes.splitn(4, |&b| b == b'\n');
    let (magic, head, _sum) = (lines.next().unwrap(), lines.next().unwrap(), lines.next());
    let payload = lines.next().unwrap();
    let mut v: serde_json::Value = serde_json::from_slice(head).unwrap();
    edit(&mut v);
    let head = format!("{}\n{}\n", String::from_utf8_lossy(magic), v);
    let mut h = blake3::Hasher::new();
    h.update(head.as_bytes());
    h.update(payload);
    let sum = format!("checksum blake3 {}\n", h.finalize().to_hex());
    std::fs::write(path, [head.as_bytes(), sum.as_bytes(), payload].concat()).unwrap();
}

/// Classic 4 x 4 to 3v2 built in `root`, then the build of 3v3 stopped after two of its
/// layer groups: the checkpoint of 3v3.
fn stop_3v3_after_two_groups(root: &Path) -> PathBuf {
    build_compact_locally(board("4x4"), Variant::Classic, mat(3, 2), root);
    let stopped = compact_build(root, mat(3, 3), &StopAfter::new(Some(2)));
    assert!(
        matches!(stopped, Err(SolveError::Interrupted(_))),
        "{stopped:?}"
    );
    ordo_solve::partial_dir(&ordo_solve::slice_path(
        root,
        Variant::Classic,
        board("4x4"),
        mat(3, 3),
    ))
}

/// The in-sweep check of 3v3 (`build_check`) after `tb build --verify-new` to 3v3 in
/// `root`, with its report and the counts of any verification pass.
fn verify_new_3v3(root: &Path) -> (ordo_solve::Verification, Reported, u64) {
    let stop = StopVerifying {
        after: u64::MAX,
        seen: Default::default(),
        boundaries: Default::default(),
    };
    let opts = BuildOptions {
        progress: &stop,
        verify: ordo_solve::VerifyScope::Built,
        ..BuildOptions::default()
    };
    let (dims, v) = (board("4x4"), Variant::Classic);
    let (tables, reports) =
        ordo_solve::build_slices::<Bitboard>(dims, v, mat(3, 3), root, &opts, |_| {})
            .expect("tb build --verify-new");
    let r = reports.last().unwrap();
    let reported = (r.stats.material.to_string(), r.built, r.verified);
    let check = tables.build_check(mat(3, 3)).expect("a verdict").clone();
    (check, reported, stop.seen.into_inner())
}

/// A checkpoint keeps the verdict of the in-sweep check of its layer groups (format 3), so a
/// slice built across a stop ends with the verdict of all its groups, as a build in one go
/// does, and needs no verification pass after it (which cost a build again): resumed under
/// `--verify-new`, 3v3 is reported verified with no count of a pass and no mark
/// `FILE.unverified`, its verdict covering as many positions as a build never stopped. The
/// verdict is the checkpoint's own: one planted there (a mismatch, the BLAKE3 recomputed)
/// makes the resumed slice fail its verification.
#[test]
fn a_resumed_slice_keeps_the_check_of_its_checkpoint_and_needs_no_pass() {
    let root = crate::common::scratch("kept-check");
    let checkpoint = stop_3v3_after_two_groups(&root);
    let kept = std::fs::read(&checkpoint).unwrap();
    assert!(ordo_solve::carries_check(&checkpoint));
    rewrite_checkpoint(&checkpoint, |v| {
        v["check"]["mismatches"] = 1.into();
        v["check"]["examples"] = serde_json::json!(["planted"]);
    });
    let (check, reported, seen) = verify_new_3v3(&root);
    assert_eq!(reported, ("3v3".to_string(), true, Some(false)));
    assert_eq!(
        (check.mismatches, &check.examples[..], seen),
        (1, &["planted".to_string()][..], 0)
    );
    let file = ordo_solve::slice_path(&root, Variant::Classic, board("4x4"), mat(3, 3));
    std::fs::remove_file(&file).unwrap();
    std::fs::write(&checkpoint, kept).unwrap();
    let (check, reported, seen) = verify_new_3v3(&root);
    assert_eq!(reported, ("3v3".to_string(), true, Some(true)));
    assert_eq!(seen, 0, "no verification pass");
    assert!(!ordo_solve::owed_mark(&file).exists() && !checkpoint.exists());
    std::fs::remove_file(&file).unwrap();
    let (whole, ..) = verify_new_3v3(&root);
    assert_eq!(check, whole, "the verdict of every group");
    assert!(whole.checked > 0 && whole.ok());
}

/// A slice resumed from a checkpoint of format 2 (written before checkpoints kept the
/// verdict of their groups) is verified in a pass after its build; a stop during that pass
/// leaves the slice's file and the mark `FILE.unverified`, so the next run that verifies what
/// it builds (`--verify-new`) verifies the slice although it reads it from its file, and
/// removes the mark; the run after that owes nothing.
#[test]
fn a_resumed_slice_stopped_in_its_verification_is_verified_by_the_next_run() {
    let root = crate::common::scratch("owed-verification");
    let checkpoint = stop_3v3_after_two_groups(&root);
    rewrite_checkpoint(&checkpoint, |v| {
        v["format"] = 2.into();
        v.as_object_mut().unwrap().remove("check");
    });
    assert!(!ordo_solve::carries_check(&checkpoint));
    let run = |after| {
        let (r, reports, _) =
            build_stopping_verification(&root, ordo_solve::VerifyScope::Built, after);
        (r, reports)
    };
    let (r, _) = run(2);
    assert!(
        matches!(&r, Err(SolveError::Interrupted(m)) if m.contains("slice 3v3")),
        "{r:?}"
    );
    let file = ordo_solve::slice_path(&root, Variant::Classic, board("4x4"), mat(3, 3));
    let mark = ordo_solve::owed_mark(&file);
    assert!(
        file.exists() && mark.exists(),
        "the file and the mark are left"
    );
    let (r, seen) = run(u64::MAX);
    assert!(r.is_ok(), "{r:?}");
    let owed: Vec<_> = seen.iter().filter(|s| s.2.is_some()).collect();
    assert_eq!(owed, [&("3v3".to_string(), false, Some(true))]);
    assert!(!mark.exists(), "the mark is removed once verified");
    let (_, seen) = run(u64::MAX);
    assert!(seen.iter().all(|s| s.2.is_none()), "nothing owed: {seen:?}");
}

/// A job refused for its arguments (a bad board, material, thread count or memory limit, a
/// missing parent, a slice over the memory limit) exits 2 and creates no output folder: the
/// folder is made only once every check has passed.
#[test]
fn a_refused_job_creates_no_folder() {
    let root = crate::common::scratch("job-refused");
    let dir = root.join("tables");
    let d = dir.to_str().unwrap();
    let refused: [&[&str]; 6] = [
        &["--board", "0x0", "--material", "1,1"],
        &["--board", "4x4", "--material", "1,0"],
        &["--board", "4x4", "--material", "1,1", "--threads", "0"],
        &[
            "--board",
            "4x4",
            "--material",
            "1,1",
            "--memory-limit",
            "lots",
        ],
        &["--board", "4x4", "--material", "2,2"],
        &["--board", "4x4", "--material", "1,1", "--memory-limit", "1"],
    ];
    for extra in refused {
        let o = ordo(&[&["tb", "job", "--dir", d][..], extra].concat());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(!dir.exists(), "{extra:?} created {d}: {err}");
    }
    assert_ok(&ordo(&[
        "tb",
        "job",
        "--board",
        "4x4",
        "--material",
        "1,1",
        "--dir",
        d,
    ]));
    assert!(dir.is_dir());
    let _ = std::fs::remove_dir_all(&root);
}
