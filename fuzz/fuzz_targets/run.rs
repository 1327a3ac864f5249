//! Fuzz target `run`: see `ytt_fuzz::run`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ytt_fuzz::run(data));
