//! The page (`web/`) is embedded at compile time, one `include_bytes!` per
//! file: a file added to the folder is not a dependency of anything yet, so
//! without this a build would keep serving the old set of files.
fn main() {
    println!("cargo:rerun-if-changed=../../web");
}
