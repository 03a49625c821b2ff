//! Print the tool catalog as JSON: how the MCP server's committed copy is made.
//!
//! ```sh
//! cargo run -q -p mcp-validation-core --example tool_catalog > mcp-host/src/tools/catalog.json
//! ```

fn main() {
    print!("{}", validation_core::tool_catalog_json());
}
