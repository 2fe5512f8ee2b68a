// Generates the Rust types and the gRPC client for kassen.v1 from Kassen's .proto files.
// Output goes to OUT_DIR (under target/), so nothing generated is ever committed.
//
// The protos: $KASSEN_PROTO if set (a ladder's sandbox shows Kassen's own there), else the
// repository's ../../proto, else the copy in proto/ that prepare.sh makes for a submission.
use std::path::PathBuf;

fn proto_root() -> PathBuf {
    println!("cargo:rerun-if-env-changed=KASSEN_PROTO");
    if let Some(root) = std::env::var_os("KASSEN_PROTO").filter(|r| !r.is_empty()) {
        return PathBuf::from(root);
    }
    let repository = PathBuf::from("../../proto");
    if repository.join("kassen/v1").is_dir() {
        repository
    } else {
        PathBuf::from("proto")
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = proto_root();
    let files = ["referee.proto", "ladder.proto"].map(|name| root.join("kassen/v1").join(name));
    for file in &files {
        if !file.is_file() {
            return Err(format!(
                "{} is missing: set KASSEN_PROTO to Kassen's proto folder, or run prepare.sh",
                file.display()
            )
            .into());
        }
    }
    tonic_prost_build::configure()
        .build_server(false) // a bot is only a client
        .build_transport(false) // we build the Channel ourselves
        .compile_protos(&files, &[root])?;
    Ok(())
}
