//! The WebAssembly module's stack: a run nests as deep as its input (up to the parser's
//! limit) and in the browser it runs on the module's own stack, not on a thread of its
//! own (`ytt::workspace::render`). The default is 1 MiB.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=-zstack-size={}", 32 << 20);
    }
}
