//! Compiles the vendored Kubernetes `.proto` files into a descriptor set the API server reads
//! at run time to speak `application/vnd.kubernetes.protobuf` (pure Rust: no `protoc` needed).

use std::path::PathBuf;

/// The files whose messages the embedded cluster serves; their imports come along.
const ROOTS: &[&str] = &[
    "k8s.io/api/core/v1/generated.proto",
    "k8s.io/api/apps/v1/generated.proto",
    "k8s.io/api/batch/v1/generated.proto",
    "k8s.io/api/autoscaling/v1/generated.proto",
    "k8s.io/api/autoscaling/v2/generated.proto",
    "k8s.io/api/policy/v1/generated.proto",
    "k8s.io/api/networking/v1/generated.proto",
    "k8s.io/api/storage/v1/generated.proto",
    "k8s.io/api/events/v1/generated.proto",
    "k8s.io/api/coordination/v1/generated.proto",
    "k8s.io/api/discovery/v1/generated.proto",
    "k8s.io/api/authorization/v1/generated.proto",
    "k8s.io/api/authentication/v1/generated.proto",
    "k8s.io/api/rbac/v1/generated.proto",
    "k8s.io/api/scheduling/v1/generated.proto",
    "k8s.io/api/certificates/v1/generated.proto",
    "k8s.io/api/node/v1/generated.proto",
    "k8s.io/api/flowcontrol/v1/generated.proto",
    "k8s.io/api/admissionregistration/v1/generated.proto",
    "k8s.io/api/resource/v1/generated.proto",
    "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1/generated.proto",
    "k8s.io/metrics/pkg/apis/metrics/v1beta1/generated.proto",
    "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/generated.proto",
];

/// A build script reports failure by returning it: cargo prints the error and stops the build.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let include = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?).join("proto");
    println!("cargo:rerun-if-changed={}", include.display());
    let mut compiler = protox::Compiler::new([&include])?;
    compiler.include_imports(true).include_source_info(false);
    for root in ROOTS {
        compiler
            .open_file(root)
            .map_err(|e| format!("compiling {root}: {e}"))?;
    }
    let out = PathBuf::from(std::env::var("OUT_DIR")?).join("kubernetes-descriptors.bin");
    std::fs::write(&out, compiler.encode_file_descriptor_set())?;
    Ok(())
}
