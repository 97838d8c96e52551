//! Atomic writes (`ordo_system::files`): a target that is not a regular file is refused and
//! left as it was, and the temporary file of a writer of this machine killed outright is
//! removed by the next write of the same target (or the next clean-up of its folder) while a
//! running writer's, and any of another machine, is left alone. The command line's side
//! of the same promises (one line, exit status 2) is tested with the command line.

use std::path::{Path, PathBuf};
use std::process::Command;

use ordo_system::files::{remove_stale_in, temp_path, this_host, write_atomically};

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ordo-system-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_write_refuses_what_is_not_a_regular_file() {
    let dir = scratch("not-regular");
    let real = dir.join("real.svg");
    std::fs::write(&real, "keep me").unwrap();
    let link = dir.join("link.svg");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let fifo = dir.join("fifo.svg");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    for (target, kind) in [
        (link.as_path(), "a symbolic link"),
        (fifo.as_path(), "a FIFO"),
        (Path::new("/dev/null"), "a device node"),
        (dir.as_path(), "a directory"),
    ] {
        let msg = write_atomically(target, "new").unwrap_err().to_string();
        assert!(msg.contains(kind) && msg.contains("refusing"), "{msg}");
        assert_eq!(msg.lines().count(), 1, "{msg}");
    }
    let link_meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(link_meta.file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "keep me");
    write_atomically(&real, "replaced").unwrap();
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "replaced");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_write_removes_the_litter_of_dead_writers() {
    let dir = scratch("stale-tmp");
    let target = dir.join("table.bin");
    let mut dead = Command::new("true").spawn().unwrap();
    dead.wait().unwrap();
    let mut alive = Command::new("sleep").arg("60").spawn().unwrap();
    let stale = temp_path(&target, dead.id()).unwrap();
    let live = temp_path(&target, alive.id()).unwrap();
    let other = temp_path(&dir.join("other.bin"), dead.id()).unwrap();
    for f in [&stale, &live, &other] {
        std::fs::write(f, vec![0u8; 1000]).unwrap();
    }
    write_atomically(&target, "data").unwrap();
    let _ = alive.kill();
    let _ = alive.wait();
    assert!(!stale.exists(), "the dead writer's file is left");
    assert!(live.exists(), "a running writer's file is removed");
    assert!(other.exists(), "another target's file is removed");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "data");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A process id that was given and is no longer running on this machine.
fn dead_pid() -> u32 {
    let mut dead = Command::new("true").spawn().unwrap();
    dead.wait().unwrap();
    dead.id()
}

/// The temporary files, by form, of one target in `dir`: this machine's of the dead writer
/// `dead` and of the running `live`, another machine's of `dead`, and the earlier form
/// without a host of `dead` and of `live`.
fn temporaries(dir: &Path, target: &str, dead: u32, live: u32) -> [PathBuf; 5] {
    let host = this_host();
    let other = format!("not-{host}");
    [
        format!(".{target}.tmp-ordo-{host}-{dead}-0"),
        format!(".{target}.tmp-ordo-{host}-{live}-1"),
        format!(".{target}.tmp-ordo-{other}-{dead}-0"),
        format!(".{target}.tmp-ordo-{dead}-2"),
        format!(".{target}.tmp-ordo-{live}-3"),
    ]
    .map(|name| dir.join(name))
}

/// Of the files [`temporaries`] names, those still there.
fn left(files: &[PathBuf; 5]) -> [bool; 5] {
    files.clone().map(|f| f.exists())
}

#[test]
fn a_write_keeps_another_machines_temporary_and_removes_this_machines_dead_ones() {
    let dir = scratch("other-host");
    // The live writer is another process: a name of this one could be the one its own write
    // makes (the same counter), which would then fail.
    let mut live = Command::new("sleep").arg("60").spawn().unwrap();
    let dead = dead_pid();
    let files = temporaries(&dir, "table.bin", dead, live.id());
    assert_eq!(files[0], temp_path(&dir.join("table.bin"), dead).unwrap());
    for f in &files {
        std::fs::write(f, b"half a table").unwrap();
    }
    write_atomically(&dir.join("table.bin"), "data").unwrap();
    let _ = live.kill();
    let _ = live.wait();
    // This machine's dead writer: removed; its live writer: kept; another machine's writer,
    // whose id means nothing here: kept; the earlier form: judged by its id as before.
    assert_eq!(left(&files), [false, true, true, false, true]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_folder_clean_up_keeps_another_machines_temporary_and_the_living() {
    let dir = scratch("other-host-dir");
    let mut live = Command::new("sleep").arg("60").spawn().unwrap();
    let files = temporaries(
        &dir,
        "ctb-classic-4x4-2v2.ordotb.partial",
        dead_pid(),
        live.id(),
    );
    for f in &files {
        std::fs::write(f, b"half a table").unwrap();
    }
    let removed = remove_stale_in(&dir).unwrap();
    let _ = live.kill();
    let _ = live.wait();
    assert_eq!(removed, 2);
    assert_eq!(left(&files), [false, true, true, false, true]);
    let _ = std::fs::remove_dir_all(&dir);
}
