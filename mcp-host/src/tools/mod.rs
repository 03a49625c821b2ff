//! What `tools/list` says: names, titles, descriptions, schemas, annotations.
//!
//! All of it comes from the core's tool catalog (`core/src/catalog/`), through
//! `catalog.json` beside this file: the core's `tool_catalog_json()`,
//! committed and embedded. A copy rather than a dependency, because this
//! crate runs the core only as the sandboxed `.wasm` and must answer
//! `tools/list` before that module is even compiled; and a committed file
//! makes every change to what the server publishes a reviewable diff. The
//! test below fails, with the command that regenerates it, whenever the copy
//! differs from the core's export.
//!
//! The one MCP-only addition made here: the annotations repeat the tool's
//! `title`, for clients that still read it there.

use std::sync::{Arc, OnceLock};

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde::Deserialize;

/// The core's catalog as committed (see the module documentation).
const CATALOG_JSON: &str = include_str!("catalog.json");

/// The parts of the catalog `tools/list` publishes; the rest is for the JS
/// API and the playground.
#[derive(Deserialize)]
struct Catalog {
    tools: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    name: String,
    title: String,
    description: String,
    input_schema: JsonObject,
    output_schema: JsonObject,
    annotations: Annotations,
}

#[derive(Deserialize)]
#[allow(clippy::struct_excessive_bools)] // MCP's four independent hints, as the catalog spells them
struct Annotations {
    read_only_hint: bool,
    destructive_hint: bool,
    idempotent_hint: bool,
    open_world_hint: bool,
}

/// The `tools/list` entries, built once.
///
/// # Panics
/// Only if the embedded `catalog.json` is not the catalog, which the test
/// below rules out.
pub fn list() -> &'static [Tool] {
    static TOOLS: OnceLock<Vec<Tool>> = OnceLock::new();
    TOOLS.get_or_init(|| {
        // The file is embedded and held to the core's export by a test, so a
        // failure here is a build that skipped the tests.
        let catalog: Catalog = serde_json::from_str(CATALOG_JSON).expect("catalog.json is the core's tool catalog");
        catalog.tools.into_iter().map(tool).collect()
    })
}

/// The tool names: the reference's, in its order, then `inspect_dataset`.
pub fn names() -> impl Iterator<Item = &'static str> {
    list().iter().map(|tool| tool.name.as_ref())
}

/// Whether `name` is one of this server's tools.
pub fn is_tool(name: &str) -> bool {
    names().any(|known| known == name)
}

fn tool(entry: Entry) -> Tool {
    let a = &entry.annotations;
    let annotations = ToolAnnotations::with_title(entry.title.clone())
        .read_only(a.read_only_hint)
        .destructive(a.destructive_hint)
        .idempotent(a.idempotent_hint)
        .open_world(a.open_world_hint);
    Tool::new(entry.name, entry.description, Arc::new(entry.input_schema))
        .with_title(entry.title)
        .with_raw_output_schema(Arc::new(entry.output_schema))
        .with_annotations(annotations)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn the_committed_catalog_is_the_core_s() {
        assert!(
            CATALOG_JSON == validation_core::tool_catalog_json(),
            "mcp-host/src/tools/catalog.json differs from the core's tool catalog; regenerate it with\n  \
             cargo run -q -p mcp-validation-core --example tool_catalog > mcp-host/src/tools/catalog.json"
        );
    }

    #[test]
    fn every_catalog_tool_is_listed_with_its_catalog_fields() {
        let catalog = validation_core::tool_catalog();
        let entries = catalog["tools"].as_array().unwrap();
        assert_eq!(
            names().collect::<Vec<_>>(),
            ["validate_rows", "reconcile", "count_distinct", "duplicate_report", "inspect_dataset"]
        );
        assert_eq!(list().len(), entries.len());
        for (tool, entry) in list().iter().zip(entries) {
            assert_eq!(tool.name, entry["name"].as_str().unwrap());
            assert_eq!(tool.title.as_deref(), entry["title"].as_str());
            assert_eq!(tool.description.as_deref(), entry["description"].as_str());
            assert_eq!(Value::Object((*tool.input_schema).clone()), entry["input_schema"]);
            assert_eq!(Value::Object((*tool.output_schema.clone().unwrap()).clone()), entry["output_schema"]);
            assert!(is_tool(&tool.name));
        }
        assert!(!is_tool("drop_table"));
    }

    #[test]
    fn every_tool_is_annotated_read_only_idempotent_closed_world() {
        for tool in list() {
            let a = tool.annotations.as_ref().unwrap();
            assert_eq!(
                (a.read_only_hint, a.destructive_hint, a.idempotent_hint, a.open_world_hint),
                (Some(true), Some(false), Some(true), Some(false)),
                "{}",
                tool.name
            );
            assert_eq!(a.title, tool.title, "{}", tool.name);
        }
    }
}
