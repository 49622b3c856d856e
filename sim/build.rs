//! Compiles the vendored Kubernetes `.proto` files into a descriptor set the API server reads
//! at run time to speak `application/vnd.kubernetes.protobuf` (pure Rust: no `protoc` needed).

use std::path::PathBuf;

/// The files whose messages the embedded cluster serves; their imports come along.
const ROOTS: &[&str] = &[
    "k8s.io/api/core/v1/generated.proto",
    "k8s.io/api/apps/v1/generated.proto",
    "k8s.io/api/batch/v1/generated.proto",
    "k8s.io/api/autoscaling/v1/generated.proto",
    "k8s.io/api/coordination/v1/generated.proto",
    "k8s.io/api/discovery/v1/generated.proto",
    "k8s.io/metrics/pkg/apis/metrics/v1beta1/generated.proto",
    "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/generated.proto",
];

fn main() {
    let include =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("proto");
    println!("cargo:rerun-if-changed={}", include.display());
    let mut compiler = protox::Compiler::new([&include]).expect("proto include dir");
    compiler.include_imports(true).include_source_info(false);
    for root in ROOTS {
        if let Err(e) = compiler.open_file(root) {
            panic!("compiling {root}: {e}");
        }
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"))
        .join("kubernetes-descriptors.bin");
    std::fs::write(&out, compiler.encode_file_descriptor_set()).expect("write descriptor set");
}
