//! Atomic writes (`ordo_system::files`): a target that is not a regular file is refused and
//! left as it was, and the temporary file of a writer killed outright is removed by the next
//! write of the same target while a running writer's is left alone. The command line's side
//! of the same promises (one line, exit status 2) is tested with the command line.

use std::path::{Path, PathBuf};
use std::process::Command;

use ordo_system::files::{temp_path, write_atomically};

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
