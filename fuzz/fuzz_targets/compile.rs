//! Fuzz target `compile`: see `ytt_fuzz::compile`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ytt_fuzz::compile(data));
