//! Links the `ytt` binary as a position-dependent executable on Linux, as the reference's
//! Go binary is. A position-independent one starts by applying ~42,000 relocations
//! (starlark's vtables): 1 MB of relocation table read and 0.5 MB of pages written by
//! every run. Without them `a: 1` renders in 2.4 ms instead of 2.9 ms and in 0.9 MiB less
//! (`../shared/bench`, medians of 21). The objects stay position-independent; only the
//! final link fixes the addresses. Libraries, tests and other targets are unaffected.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
