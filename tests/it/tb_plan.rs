//! Slices as independent jobs and their graph for a scheduler (src/solve/plan.rs, `ordo tb
//! job`, `ordo tb plan`): the parents a capture leads into, jobs that read only those and
//! build what `tb build` builds, a job run twice, a job refused for a missing or damaged
//! parent, and the Slurm, make and JSON plans run through a stand-in scheduler.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ordo::bitboard::Bitboard;
use ordo::rules::{Dims, Variant};
use ordo::solve::plan::{self, JobError, Retro, SliceSolver};
use ordo::solve::tb::{self, Material, SliceReport};
use ordo::solve::{Progress, Silent, SolveError};

const ORDO: &str = env!("CARGO_BIN_EXE_ordo");

fn mat(white: u32, black: u32) -> Material {
    Material { white, black }
}

fn board(s: &str) -> Dims {
    s.parse().expect("test board")
}

fn ordo(args: &[&str]) -> Output {
    Command::new(ORDO).args(args).output().expect("run ordo")
}

/// `tb build` of every slice up to `max` in `dir`, the reference the jobs must equal.
fn build_locally(dims: Dims, variant: Variant, max: Material, dir: &Path) {
    let opts = tb::BuildOptions {
        verify: false,
        memory_limit: None,
        progress: &Silent,
    };
    std::fs::create_dir_all(dir).expect("create the local folder");
    tb::build::<Bitboard>(dims, variant, max, dir, &opts, |_| {}).expect("tb build");
}

/// One job as on a machine of its own: a fresh solver that knows nothing but the folder.
fn job(dims: Dims, variant: Variant, m: Material, dir: &Path) -> Result<SliceReport, JobError> {
    let mut solver = Retro::<Bitboard>::new(dims, variant, None);
    plan::run_job(&mut solver, dir, m, None, &Silent)
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

/// ORDO-6.4, ORDO-9.3: a classic capture removes exactly the captured piece, so a slice's
/// parents have one piece fewer on one side; a side's last piece ends the game (ORDO-10.2).
#[test]
fn classic_parents_have_one_piece_fewer_ordo_6_4_ordo_9_3() {
    let p = |w, b| plan::parents(Variant::Classic, mat(w, b));
    assert_eq!(p(3, 2), vec![mat(2, 2), mat(3, 1)]);
    assert_eq!(p(1, 3), vec![mat(1, 2)]);
    assert_eq!(p(4, 1), vec![mat(3, 1)]);
    assert!(p(1, 1).is_empty());
}

/// ORDOX-4.1: in Ordo X a capture also removes the captured side's pieces outside its
/// largest group, so any smaller number of that side's pieces is a parent.
#[test]
fn ordo_x_parents_have_any_fewer_pieces_of_one_side_ordox_4_1() {
    let p = |w, b| plan::parents(Variant::X, mat(w, b));
    assert_eq!(p(3, 2), vec![mat(1, 2), mat(2, 2), mat(3, 1)]);
    assert_eq!(p(3, 3), vec![mat(1, 3), mat(3, 1), mat(2, 3), mat(3, 2)]);
    assert!(p(1, 1).is_empty());
}

/// The graph holds every slice up to the bound once, each after all its parents; the
/// ancestors of a classic slice are every smaller slice of the bound.
#[test]
fn the_graph_puts_every_job_after_its_parents() {
    for variant in [Variant::Classic, Variant::X] {
        let g = plan::graph(variant, mat(4, 3));
        let order: Vec<Material> = g.iter().map(|j| j.material).collect();
        assert_eq!(order, Material::up_to(4, 3));
        for (i, j) in g.iter().enumerate() {
            assert_eq!(j.parents, plan::parents(variant, j.material));
            for p in &j.parents {
                let at = order.iter().position(|m| m == p).expect("parent in graph");
                assert!(at < i, "{variant}: {p} after {}", j.material);
            }
        }
    }
    let mut below = Material::up_to(3, 3);
    below.retain(|&m| m != mat(3, 3));
    let mut ancestors = plan::ancestors(Variant::Classic, mat(3, 3));
    ancestors.sort();
    below.sort();
    assert_eq!(ancestors, below);
}

/// Jobs that each read only their parents' files build the tables `tb build` builds, in
/// both games (the parents are enough: a capture into any other slice would fail the job).
#[test]
fn jobs_reading_only_their_parents_build_what_tb_build_builds() {
    for variant in [Variant::Classic, Variant::X] {
        let dims = board("4x4");
        let root = crate::common::scratch(&format!("plan-jobs-{}", variant.name()));
        let (local, jobs) = (root.join("local"), root.join("jobs"));
        std::fs::create_dir_all(&jobs).unwrap();
        build_locally(dims, variant, mat(3, 3), &local);
        for j in plan::graph(variant, mat(3, 3)) {
            let r = job(dims, variant, j.material, &jobs)
                .unwrap_or_else(|e| panic!("{variant} job {}: {e}", j.material));
            assert!(r.built, "{} built", j.material);
        }
        assert_same_tables(&local, &jobs);
    }
}

/// A [`SliceSolver`] that reads only the classic parents (one piece fewer) in Ordo X.
struct ClassicParents(Retro<Bitboard>);

impl SliceSolver for ClassicParents {
    fn name(&self) -> &'static str {
        "narrow"
    }
    fn variant(&self) -> Variant {
        self.0.variant()
    }
    fn dims(&self) -> Dims {
        self.0.dims()
    }
    fn path(&self, dir: &Path, m: Material) -> PathBuf {
        self.0.path(dir, m)
    }
    fn needs(&self, m: Material) -> Vec<Material> {
        plan::parents(Variant::Classic, m)
    }
    fn estimate(&self, m: Material) -> Result<u64, SolveError> {
        self.0.estimate(m)
    }
    fn load(&mut self, dir: &Path, m: Material) -> Result<SliceReport, SolveError> {
        self.0.load(dir, m)
    }
    fn build(
        &mut self,
        dir: &Path,
        m: Material,
        progress: &dyn Progress,
    ) -> Result<SliceReport, SolveError> {
        self.0.build(dir, m, progress)
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
    let mut narrow = ClassicParents(Retro::new(dims, Variant::X, None));
    let err = plan::run_job(&mut narrow, &dir, mat(3, 3), None, &Silent)
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
    let path = tb::Tablebase::path(&dir, Variant::Classic, dims, mat(2, 2));
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

/// A job whose parents are not built is refused with every missing file named, on the
/// command line with one line and exit status 2, and writes nothing.
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
    let d = dir.to_str().unwrap();
    let o = ordo(&[
        "tb",
        "job",
        "--board",
        "4x4",
        "--material",
        "2,2",
        "--dir",
        d,
    ]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    let error: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("ordo: error"))
        .collect();
    assert_eq!(error.len(), 1, "{stderr}");
    assert!(error[0].contains("2v1") && error[0].contains(d), "{stderr}");
    assert!(!tb::Tablebase::path(&dir, Variant::Classic, dims, mat(2, 2)).exists());
}

/// A job whose parent's file is damaged is refused with the parent and the reason named.
#[test]
fn a_job_with_a_damaged_parent_is_refused_and_writes_nothing() {
    let dims = board("4x4");
    let dir = crate::common::scratch("plan-damaged");
    build_locally(dims, Variant::Classic, mat(2, 1), &dir);
    build_locally(dims, Variant::Classic, mat(1, 2), &dir);
    let parent = tb::Tablebase::path(&dir, Variant::Classic, dims, mat(2, 1));
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
    let o = ordo(&[
        "tb",
        "job",
        "--board",
        "4x4",
        "--material",
        "2,2",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("2v1") && stderr.contains("checksum"),
        "{stderr}"
    );
    assert!(!tb::Tablebase::path(&dir, Variant::Classic, dims, mat(2, 2)).exists());
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

/// The Slurm plan submits every slice once, after its parents' job ids, and running the
/// submitted commands in submission order builds what `tb build` builds.
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
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
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
    let graph = plan::graph(Variant::X, mat(3, 2));
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
    build_locally(board("4x4"), Variant::X, mat(3, 2), &local);
    assert_same_tables(&local, &tables);
}

/// The make plan of a small board's game builds every slice up to the start's material and
/// then probes the start: the verdict `ordo solve` gives.
#[test]
fn the_make_plan_of_a_game_ends_with_the_verdict_of_ordo_solve() {
    let root = crate::common::scratch("plan-make");
    let tables = root.join("tables");
    let o = ordo(&[
        "tb",
        "plan",
        "--board",
        "3x4",
        "--setup",
        "row1",
        "--format",
        "make",
        "--dir",
        tables.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mk = root.join("plan.mk");
    std::fs::write(&mk, &o.stdout).unwrap();
    let run = Command::new("make")
        .args(["-s", "-j2", "-f"])
        .arg(&mk)
        .output();
    let Ok(run) = run else {
        eprintln!("make is not installed: the make plan is not run");
        return;
    };
    let log = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{log}");
    assert_eq!(table_files(&tables).len(), 9, "every slice up to 3v3");
    // Each job says on stderr what it does: the slice, its phases, positions and rate.
    for line in [
        "ordo tb job: classic 3x4 3v3: read slice 2v3",
        "ordo tb job: classic 3x4 3v3: solving: successors",
        "ordo tb job: classic 3x4 3v3: built ",
    ] {
        assert!(log.contains(line), "'{line}' missing from {log}");
    }
    assert!(log.contains("entries a second"), "{log}");
    let verdict = std::fs::read_to_string(tables.join("game-classic-3x4-row1.txt")).unwrap();
    let solve = ordo(&["solve", "--board", "3x4", "--setup", "row1", "--no-save"]);
    let solve = String::from_utf8_lossy(&solve.stdout);
    let first = solve.lines().next().unwrap();
    let said = first
        .split_once(": ")
        .unwrap()
        .1
        .replace("White (to move)", "White to move");
    assert_eq!(verdict.lines().next().unwrap(), said);
}

/// The JSON plan lists each job with its parents, its file and its command.
#[test]
fn the_json_plan_lists_every_job_with_its_parents() {
    let o = ordo(&[
        "tb",
        "plan",
        "--board",
        "5x5",
        "--max-pieces",
        "3,2",
        "--format",
        "json",
        "--dir",
        "/shared/t",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let jobs = v["jobs"].as_array().expect("jobs");
    assert_eq!(jobs.len(), 6);
    let j = jobs.iter().find(|j| j["name"] == "3v2").expect("3v2");
    assert_eq!(j["parents"], serde_json::json!(["2v2", "3v1"]));
    assert_eq!(j["output"], "/shared/t/tb-classic-5x5-3v2.ordotb");
    let cmd: Vec<&str> = j["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(&cmd[1..3], &["tb", "job"]);
    assert!(cmd.windows(2).any(|w| w == ["--material", "3,2"]));
    assert!(j["memory_bytes"].as_u64().unwrap() > 64 << 20);
    let bad = ordo(&["tb", "plan", "--max-pieces", "0,2"]);
    assert_eq!(bad.status.code(), Some(2));
}
