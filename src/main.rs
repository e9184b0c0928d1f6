//! The `hedge` binary: the command line (and, later, the editor).

fn main() {
    println!("hedge");
}
