//! Fuzz target `yaml`: see `ytt_fuzz::yaml`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ytt_fuzz::yaml(data));
