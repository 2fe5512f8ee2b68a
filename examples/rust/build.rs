// Generates the Rust types and the gRPC client for kassen.v1 from the repository's proto/ tree.
// Output goes to OUT_DIR (under target/), so nothing generated is ever committed.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    tonic_prost_build::configure()
        .build_server(false) // a bot is only a client
        .build_transport(false) // we build the Channel ourselves
        .compile_protos(
            &[
                "../../proto/kassen/v1/referee.proto",
                "../../proto/kassen/v1/ladder.proto",
            ],
            &["../../proto"],
        )?;
    Ok(())
}
