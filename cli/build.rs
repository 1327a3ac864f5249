//! How the `ytt` binary is linked on Linux; libraries, tests and other targets are
//! unaffected.
//!
//! - Position-dependent, as the reference's Go binary is. A position-independent one
//!   starts by applying ~42,000 relocations (starlark's vtables): 1 MB of relocation table
//!   read and 0.5 MB of pages written by every run. Without them `a: 1` renders in 2.4 ms
//!   instead of 2.9 ms and in 0.9 MiB less (`../shared/bench`, medians of 21). The objects
//!   stay position-independent; only the final link fixes the addresses.
//! - With glibc, dynamically linked: the unwinder (panics, backtraces) linked in from
//!   `libgcc_eh.a` instead of loaded from `libgcc_s.so.1`. That library is one more for the
//!   dynamic loader to map and bind, and its constructor asks the CPU for its features
//!   with `cpuid`, which traps to the hypervisor in a virtual machine: 0.09 ms of the
//!   0.5 ms `ytt version` took over `/bin/true` (interleaved, medians of 300). The linker
//!   (rust-lld) then finds nothing left for `libgcc_s` and drops it (`--as-needed`); an
//!   order-sensitive linker (GNU ld) keeps it needed, and the binary works the same.
//!
//! A statically linked build (`cargo static`, .cargo/config.toml) sets the relocation
//! model itself: `-no-pie` added to rustc's `-static-pie` would link a binary that crashes;
//! it links the unwinder statically already.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let linux = var("CARGO_CFG_TARGET_OS") == "linux";
    let crt_static = var("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|f| f == "crt-static");
    if linux && !crt_static {
        println!("cargo:rustc-link-arg-bins=-no-pie");
        if var("CARGO_CFG_TARGET_ENV") == "gnu" {
            for arg in [
                "-Wl,--whole-archive",
                "-l:libgcc_eh.a",
                "-Wl,--no-whole-archive",
            ] {
                println!("cargo:rustc-link-arg-bins={arg}");
            }
        }
    }
}
