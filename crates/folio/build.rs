//! Link options of the `folio` executable.

fn main() {
    // Relative relocations packed (DT_RELR): the loader applies every pointer of the
    // executable's relocated data at start, and reads their table to do so. Packed, that table
    // is kilobytes instead of 3.8 MB that each server held resident for nothing (docs/
    // benchmarks.md, resident memory). GNU ld 2.38+ and lld understand it, and glibc 2.36+
    // runs it; an older GNU ld warns that it ignores the option and links as before.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}
