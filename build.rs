//! Build script: compiles the C++ boundary around CaDiCaL's C API (`src/sat/cadical_shim.cpp`),
//! which turns C++ exceptions into status codes (see `src/sat/cadical.rs`). CaDiCaL itself and
//! the C++ runtime come from the `cadical` crate.

fn main() {
    let shim = "src/sat/cadical_shim.cpp";
    println!("cargo:rerun-if-changed={shim}");
    let mut build = cc::Build::new();
    build.cpp(true).std("c++17").file(shim).opt_level(2);
    if build.get_compiler().is_like_clang() {
        build.cpp_set_stdlib("c++");
    }
    build.compile("bitmc_cadical_shim");
}
