//! The committed JSON Schema must match the Rust types.

use std::path::PathBuf;

#[test]
fn committed_schema_matches_the_types() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schema/protocol.schema.json");
    let generated = fipsen_protocol::schema::protocol_schema_text();
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &generated).expect("write the schema");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "protocol/schema/protocol.schema.json is out of date; regenerate it with\n  \
         UPDATE_SCHEMA=1 cargo test -p fipsen-protocol --test schema"
    );
}

#[test]
fn schema_names_every_message_type_and_error_code() {
    let schema = fipsen_protocol::schema::protocol_schema();
    let text = schema.to_string();
    for kind in fipsen_protocol::ClientMessage::TYPES {
        assert!(text.contains(&format!("\"const\":\"{kind}\"")), "client type {kind} missing");
    }
    for kind in ["welcome", "joined", "update", "ack", "error", "lobby", "my_rooms", "left", "pong"] {
        assert!(text.contains(&format!("\"const\":\"{kind}\"")), "server type {kind} missing");
    }
    for code in fipsen_protocol::ErrorCode::all_codes() {
        assert!(text.contains(&format!("\"{code}\"")), "error code {code} missing");
    }
    assert!(schema["$defs"]["ClientMessage"].is_object());
    assert!(schema["$defs"]["ServerMessage"].is_object());
}
