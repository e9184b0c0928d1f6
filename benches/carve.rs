//! Carver benchmarks (filled in with the core issue).
fn main() {}
