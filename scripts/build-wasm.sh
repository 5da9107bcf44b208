#!/usr/bin/env bash
# Builds the engine for the browser (crates/qiyuan-wasm) into web/engine.wasm, which the page's
# post-game analysis runs in a Web Worker. Rebuild it after changing the engine or the rules;
# the file is committed so that `cargo run --release -- serve` needs no WebAssembly toolchain.
# Needs the wasm32-unknown-unknown target: `rustup target add wasm32-unknown-unknown`.
set -euo pipefail
cd "$(dirname "$0")/.."
CARGO_PROFILE_RELEASE_LTO=true CARGO_PROFILE_RELEASE_STRIP=symbols \
CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_DEBUG=false \
CARGO_PROFILE_RELEASE_PANIC=abort CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/wasm-build" \
  cargo build -p qiyuan-wasm --target wasm32-unknown-unknown --release
cp "${CARGO_TARGET_DIR:-target}/wasm-build/wasm32-unknown-unknown/release/qiyuan_wasm.wasm" web/engine.wasm
ls -l web/engine.wasm
