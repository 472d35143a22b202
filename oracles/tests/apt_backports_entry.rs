//! `scripts/apt-backports-entry` builds the bookworm-backports source from the machine's own
//! bookworm entry (so the repository names no mirror): deb822 `.sources` and one-line `.list`
//! forms, keyring carried over, no entry -> exit 1. Checked against apt's documented formats
//! (sources.list(5)) on fake /etc/apt trees.

use std::path::{Path, PathBuf};
use std::process::Command;

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/apt-backports-entry")
}

/// Runs the script over a fake apt root holding `files` (path under the root, contents).
fn run(files: &[(&str, &str)]) -> (i32, String) {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join("sources.list.d")).unwrap();
    for (path, text) in files {
        std::fs::write(root.path().join(path), text).unwrap();
    }
    let out = Command::new("python3")
        .arg(script())
        .arg(root.path())
        .output()
        .expect("python3 runs the script");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn deb822_bookworm_entry_gives_its_mirror_and_keyring() {
    let (code, out) = run(&[(
        "sources.list.d/debian.sources",
        "Types: deb\n# a comment\nURIs: http://mirror.invalid/debian\nSuites: bookworm bookworm-updates\n\
         Components: main\nSigned-By: /usr/share/keyrings/k.gpg\n\n\
         Types: deb\nURIs: http://security.invalid/debian-security\nSuites: bookworm-security\n\
         Components: main\n",
    )]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "Types: deb\nURIs: http://mirror.invalid/debian\nSuites: bookworm-backports\n\
         Components: main\nSigned-By: /usr/share/keyrings/k.gpg\n"
    );
}

#[test]
fn one_line_entry_with_options_is_read_too() {
    let (code, out) = run(&[(
        "sources.list",
        "# deb http://old.invalid/debian buster main\n\
         deb-src http://src.invalid/debian bookworm main\n\
         deb [arch=amd64 signed-by=/etc/k.gpg] http://line.invalid/debian bookworm main contrib\n",
    )]);
    assert_eq!(code, 0);
    assert!(out.contains("URIs: http://line.invalid/debian\n"), "{out}");
    assert!(out.contains("Signed-By: /etc/k.gpg\n"), "{out}");
    assert!(out.contains("Suites: bookworm-backports\n"), "{out}");
}

#[test]
fn no_bookworm_entry_is_exit_1_and_no_output() {
    let (code, out) = run(&[(
        "sources.list.d/other.sources",
        "Types: deb\nURIs: http://x.invalid/debian\nSuites: trixie\nComponents: main\n",
    )]);
    assert_eq!((code, out.as_str()), (1, ""));
}
