//! The JSON Schema of the protocol, generated from the Rust types. The committed copy is
//! `protocol/schema/protocol.schema.json`; a test fails when it no longer matches. Regenerate it
//! with `UPDATE_SCHEMA=1 cargo test -p fipsen-protocol --test schema`.

use schemars::generate::SchemaSettings;
use serde_json::{Value, json};

use crate::error::ErrorCode;
use crate::message::{ClientMessage, ServerMessage};
use crate::{MAX_MESSAGE_BYTES, PROTOCOL_VERSION};

/// The schema of every frame: a `ClientMessage` or a `ServerMessage`, with every type they use
/// under `$defs`.
pub fn protocol_schema() -> Value {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let client = generator.subschema_for::<ClientMessage>();
    let server = generator.subschema_for::<ServerMessage>();
    let defs = generator.take_definitions(true);
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": format!("Fipsen protocol, version {PROTOCOL_VERSION}"),
        "description": format!(
            "One JSON object per WebSocket text frame on /ws, at most {MAX_MESSAGE_BYTES} bytes from the client. \
             Clients send ClientMessage, the server sends ServerMessage. See docs/PROTOCOL.md."
        ),
        "anyOf": [client, server],
        "$defs": defs,
    })
}

/// The schema text as committed: pretty JSON with a final newline.
pub fn protocol_schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&protocol_schema()).unwrap_or_default();
    text.push('\n');
    text
}

/// The schema of an error code: one of the known codes.
pub(crate) fn error_code_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let codes = ErrorCode::all_codes();
    schemars::json_schema!({
        "type": "string",
        "description": "A stable error code (area/reason); the rules crate's codes included.",
        "enum": codes,
    })
}
