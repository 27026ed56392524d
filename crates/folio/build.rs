//! Link options of the `folio` executable.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // Relative relocations packed (DT_RELR): the loader applies every pointer of the
    // executable's relocated data at start, and reads their table to do so. Packed, that table
    // is kilobytes instead of the 3.8 MB each server read and held resident for nothing
    // (docs/benchmarks.md, resident memory). glibc runs such an executable from 2.36 on, and
    // GNU ld refuses to make one against an older glibc, so the option is given only when
    // building for the glibc of this machine and that glibc is recent enough.
    if packs_relative_relocations() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

fn packs_relative_relocations() -> bool {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let native = var("HOST") == var("TARGET");
    native && var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu" && {
        // `glibc 2.36`
        let version = Command::new("getconf")
            .arg("GNU_LIBC_VERSION")
            .output()
            .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
            .unwrap_or_default();
        let mut numbers = version
            .trim()
            .trim_start_matches("glibc ")
            .split('.')
            .map(|n| n.parse::<u32>().unwrap_or(0));
        let (major, minor) = (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0));
        (major, minor) >= (2, 36)
    }
}
