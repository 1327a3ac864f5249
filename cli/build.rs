//! Links the `ytt` binary as a position-dependent executable on Linux, as the reference's
//! Go binary is. A position-independent one starts by applying ~42,000 relocations
//! (starlark's vtables): 1 MB of relocation table read and 0.5 MB of pages written by
//! every run. Without them `a: 1` renders in 2.4 ms instead of 2.9 ms and in 0.9 MiB less
//! (`../shared/bench`, medians of 21). The objects stay position-independent; only the
//! final link fixes the addresses. Libraries, tests and other targets are unaffected.
//!
//! A statically linked build (`cargo static`, .cargo/config.toml) sets the relocation
//! model itself: `-no-pie` added to rustc's `-static-pie` would link a binary that crashes.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux");
    let crt_static = std::env::var("CARGO_CFG_TARGET_FEATURE")
        .is_ok_and(|features| features.split(',').any(|f| f == "crt-static"));
    if linux && !crt_static {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
