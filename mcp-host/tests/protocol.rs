//! The protocol surface: handshakes (2025-06-18, 2025-11-25 `initialize`;
//! 2026-07-28 `server/discover`), `tools/list`, error shapes, stdout hygiene,
//! `--help` and `--version`.

mod common;

use std::path::Path;
use std::process::Command;

use common::{
    assert_small_call_ok, binary, is_error, skip_or_fail, small_call_arguments, text_of, HttpServer, StdioServer,
};
use serde_json::{json, Value};

const INSTRUCTIONS: &str = include_str!("../src/instructions.md");
/// The reference's four tools, in its order, then this project's addition.
const TOOLS: [&str; 5] = ["validate_rows", "reconcile", "count_distinct", "duplicate_report", "inspect_dataset"];

fn check_initialize_result(result: &Value, version: &str) {
    assert_eq!(result["protocolVersion"], json!(version), "{result}");
    assert_eq!(result["serverInfo"]["name"], json!("mcp-validation-server"));
    assert_eq!(result["serverInfo"]["title"], json!("Data Validation"));
    assert_eq!(result["serverInfo"]["version"], json!("0.1.0"));
    assert_eq!(result["instructions"], json!(INSTRUCTIONS));
    assert!(result["capabilities"]["tools"].is_object(), "{result}");
}

#[test]
fn initialize_handshakes_2025_06_18_and_2025_11_25() {
    for version in ["2025-06-18", "2025-11-25"] {
        let mut server = StdioServer::start(&[], &[]);
        let response = server.initialize(version);
        check_initialize_result(&response["result"], version);
        let tools = server.request("tools/list", json!({}));
        assert_eq!(tools["result"]["tools"].as_array().unwrap().len(), TOOLS.len(), "{version}");
        assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
        assert!(server.stdout_garbage().is_empty());
    }
}

fn meta_2026() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "mcp-host-tests", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

#[test]
fn server_discover_then_stateless_requests_2026_07_28_over_stdio() {
    let mut server = StdioServer::start(&[], &[]);
    let discover = server.request("server/discover", json!({"_meta": meta_2026()}));
    let result = &discover["result"];
    assert!(
        result["supportedVersions"]
            .as_array()
            .is_some_and(|v| v.contains(&json!("2026-07-28")) && v.contains(&json!("2025-06-18"))),
        "{discover}"
    );
    assert_eq!(result["instructions"], json!(INSTRUCTIONS));
    assert_eq!(result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], json!("mcp-validation-server"));

    let tools = server.request("tools/list", json!({"_meta": meta_2026()}));
    let names: Vec<&str> =
        tools["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, TOOLS);
    let call = server.request(
        "tools/call",
        json!({"name": "count_distinct", "arguments": small_call_arguments(), "_meta": meta_2026()}),
    );
    assert_eq!(call["result"]["resultType"], json!("complete"), "{call}");
    assert_small_call_ok(&call["result"]);
}

#[test]
fn server_discover_and_stateless_calls_2026_07_28_over_http() {
    let server = HttpServer::start(&[], &[]);
    let client = reqwest::blocking::Client::new();
    let post = |method: &str, name: Option<&str>, body: Value| {
        let mut request = client
            .post(&server.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Authorization", server.authorization().unwrap())
            .header("Mcp-Method", method);
        if let Some(name) = name {
            request = request.header("Mcp-Name", name);
        }
        let response = request.body(body.to_string()).send().unwrap();
        let status = response.status().as_u16();
        common::parse_http_reply(status, &response.text().unwrap())
    };
    let discover = post(
        "server/discover",
        None,
        json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta_2026()}}),
    );
    assert!(
        discover["result"]["supportedVersions"].as_array().is_some_and(|v| v.contains(&json!("2026-07-28"))),
        "{discover}"
    );
    let call = post(
        "tools/call",
        Some("count_distinct"),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": "count_distinct", "arguments": small_call_arguments(), "_meta": meta_2026()}}),
    );
    assert_small_call_ok(&call["result"]);
}

#[test]
fn tools_list_names_titles_annotations_and_schemas() {
    let mut server = StdioServer::initialized(&[], &[]);
    let response = server.request("tools/list", json!({}));
    let tools = response["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool["name"].as_str().unwrap()).collect();
    assert_eq!(names, TOOLS);
    for tool in tools {
        let name = tool["name"].as_str().unwrap();
        assert!(tool["title"].as_str().is_some_and(|t| !t.is_empty()), "{name}: title");
        assert!(tool["description"].as_str().is_some_and(|d| d.len() > 500), "{name}: description");
        assert_eq!(
            tool["annotations"],
            json!({"title": tool["title"], "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}),
            "{name}"
        );
        assert_eq!(tool["outputSchema"]["type"], json!("object"), "{name}");
        let input = tool["inputSchema"].as_object().unwrap();
        assert_eq!(input["type"], json!("object"));
        for key in ["anyOf", "oneOf", "allOf"] {
            assert!(!input.contains_key(key), "{name}: top-level {key}");
        }
        assert!(!tool["inputSchema"].to_string().contains("$ref"), "{name}: $ref");
    }
}

/// The arguments contract v2 (`schema`, `table`, `row_rules`) and the export
/// files (`export`, issue 16) add to `validate_rows`, in the order published.
const CONTRACT_V2_ARGUMENTS: [&str; 4] = ["schema", "table", "row_rules", "export"];

/// What every row-taking tool adds after the reference's arguments, in order.
const ROW_TOOL_ARGUMENTS: [&str; 5] = ["csv", "path", "max_listed", "lists", "page"];

#[test]
fn input_schemas_are_the_reference_s() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance/reference_tools_list.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        skip_or_fail(&format!("no recorded reference tools/list at {}", path.display()));
        return;
    };
    let reference: Value = serde_json::from_str(&text).unwrap();
    let mut server = StdioServer::initialized(&[], &[]);
    let ours = server.request("tools/list", json!({}));
    let ours = ours["result"]["tools"].as_array().unwrap();
    let theirs = reference["tools"].as_array().unwrap();
    // The reference's tools come first, in its order, each checked below;
    // then exactly one addition, inspect_dataset, which takes the data the
    // way the row tools do and nothing else.
    assert_eq!(ours.len(), theirs.len() + 1, "the reference's tools and inspect_dataset");
    let added = &ours[theirs.len()];
    assert_eq!(added["name"], "inspect_dataset");
    let row_tool = ours.iter().find(|tool| tool["name"] == "count_distinct").unwrap();
    for key in ["rows", "csv", "path", "max_listed"] {
        assert_eq!(added["inputSchema"]["properties"][key], row_tool["inputSchema"]["properties"][key], "{key}");
    }
    let keys: Vec<&String> = added["inputSchema"]["properties"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["rows", "csv", "path", "max_listed"]);
    assert_eq!(added["inputSchema"]["required"], json!([]));
    for (mine, reference) in ours.iter().zip(theirs) {
        assert_eq!(mine["name"], reference["name"]);
        // The row-taking tools add `csv`, `path` and `max_listed`, then
        // `lists` and `page` (issue 16), after the reference's arguments, and
        // then `rows` is no longer required; everything the reference
        // declares is otherwise unchanged.
        let mut expected = reference["inputSchema"].clone();
        let mut actual = mine["inputSchema"].clone();
        if expected["properties"].get("rows").is_some() {
            let keys: Vec<&str> = actual["properties"].as_object().unwrap().keys().map(String::as_str).collect();
            let added = &keys[keys.len().saturating_sub(ROW_TOOL_ARGUMENTS.len())..];
            assert_eq!(added, ROW_TOOL_ARGUMENTS, "{}: the arguments added last, in order", mine["name"]);
            for key in ROW_TOOL_ARGUMENTS {
                actual["properties"].as_object_mut().unwrap().remove(key);
            }
            expected["required"].as_array_mut().unwrap().retain(|name| name != "rows");
        }
        // reconcile takes the list cap too, after its own arguments.
        if mine["name"] == "reconcile" {
            let last = actual["properties"].as_object().unwrap().keys().next_back().cloned();
            assert_eq!(last.as_deref(), Some("max_listed"), "reconcile: max_listed comes last");
            actual["properties"].as_object_mut().unwrap().remove("max_listed");
        }
        // Contract v2 adds arguments to validate_rows, and `schema` can
        // stand in for `columns`, which is then no longer required.
        if mine["name"] == "validate_rows" {
            let properties = actual["properties"].as_object_mut().unwrap();
            let added: Vec<&String> =
                properties.keys().filter(|key| reference["inputSchema"]["properties"].get(*key).is_none()).collect();
            assert_eq!(added, CONTRACT_V2_ARGUMENTS, "validate_rows: contract v2's arguments, in order");
            for key in CONTRACT_V2_ARGUMENTS {
                properties.remove(key);
            }
            expected["required"].as_array_mut().unwrap().retain(|name| name != "columns");
        }
        if let Some(diff) = conformance_support::first_difference("$", &expected, &actual) {
            panic!("{}: inputSchema differs from the reference: {diff}", mine["name"]);
        }
    }
}

#[test]
fn an_unknown_tool_is_a_json_rpc_error_naming_it() {
    let mut server = StdioServer::initialized(&[], &[]);
    let response = server.request("tools/call", json!({"name": "drop_table", "arguments": {}}));
    assert_eq!(response["error"]["code"], json!(-32602), "{response}");
    assert!(response["error"]["message"].as_str().unwrap().contains("drop_table"), "{response}");
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
}

#[test]
fn a_tool_error_is_an_is_error_result_with_the_reference_text() {
    let mut server = StdioServer::initialized(&[], &[]);
    let result = server.call_tool("count_distinct", json!({"rows": [{"k": 1}], "key": ""}));
    assert!(is_error(&result));
    assert_eq!(
        text_of(&result),
        "Error executing tool count_distinct: key must be the name of the column holding the stable identifier, \
         got ''. Example: count_distinct(rows, key=\"customer_id\")"
    );
    assert!(result.get("structuredContent").is_none(), "{result}");
    assert_eq!(
        result["_meta"]["mcp-validation-server/error"],
        json!({"code": "invalid_argument", "argument": "key", "location": "key", "line": null}),
        "{result}"
    );
    // A fault deep in the contract is located there: the second column's pattern.
    let result = server.call_tool(
        "validate_rows",
        json!({"rows": [], "columns": [{"name": "a"}, {"name": "b", "pattern": "(unclosed"}]}),
    );
    assert_eq!(result["_meta"]["mcp-validation-server/error"]["location"], json!("columns[1].pattern"), "{result}");
    assert_eq!(result["_meta"]["mcp-validation-server/error"]["code"], json!("invalid_contract"), "{result}");

    let result = server.call_tool("duplicate_report", json!({"rows": "x", "key": 5, "max_groups": "many"}));
    assert!(is_error(&result));
    let text = text_of(&result);
    assert!(text.starts_with("Error executing tool duplicate_report: "), "{text}");
    for argument in ["rows", "key", "max_groups"] {
        assert!(text.contains(&format!("\"{argument}\"")), "{argument} not named in {text}");
    }
}

#[test]
fn a_result_has_structured_content_and_an_indented_json_copy() {
    let mut server = StdioServer::initialized(&[], &[]);
    let result = server.call_tool("count_distinct", small_call_arguments());
    assert_eq!(result["isError"], json!(false));
    let structured = &result["structuredContent"];
    let text = text_of(&result);
    assert!(text.starts_with("{\n  \"tool\": \"count_distinct\",\n  \"ok\": "), "{text}");
    let copy: Value = serde_json::from_str(text).unwrap();
    assert_eq!(&copy, structured);
}

#[test]
fn stdout_carries_only_protocol_and_logs_go_to_stderr() {
    let mut server = StdioServer::initialized(&[], &[]);
    server.call_tool("count_distinct", small_call_arguments());
    server.call_tool("validate_rows", json!({"rows": [], "columns": [{"name": "a", "type": "nonsense"}]}));
    server.request("tools/call", json!({"name": "nope"}));
    server.send_raw(b"this is not json\n");
    server.wait_for(|m| m["error"]["code"] == json!(-32700), common::DEFAULT_WAIT).expect("a parse error reply");
    server.close_stdin();
    assert!(server.wait_exit(std::time::Duration::from_secs(30)).is_some_and(|status| status.success()));
    assert!(server.stdout_garbage().is_empty(), "non-JSON on stdout: {:?}", server.stdout_garbage());
    for message in server.pending_messages() {
        assert_eq!(message["jsonrpc"], json!("2.0"), "{message}");
    }
    let logged = server.wait_for_stderr("call finished", std::time::Duration::from_secs(10));
    assert!(logged, "no call log on stderr:\n{}", server.stderr());
}

#[test]
fn stdin_and_stdout_that_are_files_are_served_too() {
    // An MCP host gives the server pipes, which it reads and writes on the
    // runtime's own threads; a file (or a terminal) cannot be waited on and
    // takes tokio's blocking streams instead. Both must speak the protocol.
    use std::io::Write as _;
    use std::process::Stdio;
    let dir = std::env::temp_dir().join(format!("mcpv-stdio-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "count_distinct", "arguments": small_call_arguments()}});
    let read_replies = |path: &Path| -> Vec<Value> {
        // Whole lines only: the server may be writing the next one.
        let text = std::fs::read_to_string(path).unwrap();
        let whole = &text[..text.rfind('\n').map_or(0, |end| end + 1)];
        whole.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
    };

    // stdin a file: read to its end (the session ends there), answered on a pipe.
    let input = dir.join("in.jsonl");
    std::fs::write(&input, format!("{initialize}\n{initialized}\n")).unwrap();
    let out =
        Command::new(binary()).stdin(std::fs::File::open(&input).unwrap()).stderr(Stdio::null()).output().unwrap();
    assert!(out.status.success(), "{}", out.status);
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    check_initialize_result(&reply["result"], "2025-06-18");

    // stdout a file: a call answered into it.
    let output = dir.join("out.jsonl");
    let mut child = Command::new(binary())
        .stdin(Stdio::piped())
        .stdout(std::fs::File::create(&output).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    write!(stdin, "{initialize}\n{initialized}\n{call}\n").unwrap();
    let waited = std::time::Instant::now();
    while read_replies(&output).len() < 2 && waited.elapsed() < common::DEFAULT_WAIT {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    let replies = read_replies(&output);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(replies.len(), 2, "{replies:?}");
    check_initialize_result(&replies[0]["result"], "2025-06-18");
    assert_eq!(replies[1]["id"], json!(1));
    assert_small_call_ok(&replies[1]["result"]);
}

#[test]
fn a_large_reply_and_a_small_one_both_arrive_whole_over_pipes() {
    // Replies up to 64 KiB are written out on the protocol's thread, larger
    // ones serialised on the blocking pool first: both arrive as one line.
    let mut server = StdioServer::initialized(&[], &[]);
    let rows: Vec<Value> = (0..5_000).map(|i| json!({"id": format!("C-{i}")})).collect();
    let arguments = json!({"rows": rows, "columns": [{"name": "id", "required": true}], "max_listed": 1_000_000});
    let large = server.call_tool("validate_rows", arguments);
    assert_eq!(large["structuredContent"]["accepted"].as_array().map(Vec::len), Some(5_000));
    assert!(text_of(&large).len() > 64 << 10, "the reply is over the inline size");
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
}

#[test]
fn garbage_before_initialize_does_not_stop_the_server() {
    let mut server = StdioServer::start(&[], &[]);
    server.send_raw(b"\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    server.send_raw(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n");
    let response = server.initialize("2025-06-18");
    check_initialize_result(&response["result"], "2025-06-18");
    assert_small_call_ok(&server.call_tool("count_distinct", small_call_arguments()));
}

#[test]
fn streamable_http_serves_a_session() {
    let server = HttpServer::start(&[], &[]);
    let mut session = server.session();
    let tools = session.request("tools/list", json!({}));
    assert_eq!(tools["result"]["tools"].as_array().unwrap().len(), TOOLS.len(), "{tools}");
    assert_small_call_ok(&session.call_tool("count_distinct", small_call_arguments()));
    let unknown = session.request("tools/call", json!({"name": "nope", "arguments": {}}));
    assert_eq!(unknown["error"]["code"], json!(-32602), "{unknown}");
    let other = server.session_at("2025-11-25");
    drop(other);
}

#[test]
fn help_explains_every_flag_and_version_names_the_module() {
    let help = Command::new(binary()).arg("--help").output().unwrap();
    assert!(help.status.success());
    let help = String::from_utf8(help.stdout).unwrap();
    for flag in [
        "--transport",
        "--host",
        "--port",
        "--max-fuel",
        "--max-memory-mib",
        "--timeout-secs",
        "--max-message-mib",
        "--cache-dir",
        "--no-cache",
        "--log",
        "MCP_VALIDATION_MAX_FUEL",
        "MCP_VALIDATION_MAX_MEMORY_MIB",
        "MCP_VALIDATION_TIMEOUT_SECS",
        "MCP_VALIDATION_MAX_MESSAGE_MIB",
        "streamable-http",
    ] {
        assert!(help.contains(flag), "--help does not mention {flag}");
    }
    let version = Command::new(binary()).arg("--version").output().unwrap();
    assert!(version.status.success());
    let version = String::from_utf8(version.stdout).unwrap();
    assert!(version.starts_with("mcp-validation-server 0.1.0\n"), "{version}");
    let sha = env!("MCPV_WASM_MODULE_SHA256");
    assert!(version.contains(&format!("module sha256 {sha}")), "{version}");
}

#[test]
fn an_unknown_transport_is_refused_with_the_choices() {
    let output = Command::new(binary()).args(["--transport", "sse"]).output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("stdio") && stderr.contains("streamable-http"), "{stderr}");
}

fn initialize_with_host_header(server: &HttpServer, url: &str, host: &str) -> u16 {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}});
    reqwest::blocking::Client::new()
        .post(url)
        .header("Host", host)
        .header("Authorization", server.authorization().unwrap())
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .body(body.to_string())
        .send()
        .unwrap()
        .status()
        .as_u16()
}

#[test]
fn http_host_headers_loopback_by_default_any_on_a_wildcard_bind() {
    // Loopback (the default): only loopback names, against DNS rebinding.
    let server = HttpServer::start(&[], &[]);
    let port = server.url.rsplit(':').next().unwrap().trim_end_matches("/mcp").to_owned();
    assert_eq!(initialize_with_host_header(&server, &server.url, &format!("localhost:{port}")), 200);
    assert_eq!(initialize_with_host_header(&server, &server.url, &format!("rebind.example:{port}")), 403);
    // 0.0.0.0 answers under any name, so any Host is accepted.
    let server = HttpServer::start(&["--host", "0.0.0.0"], &[]);
    let port = server.url.rsplit(':').next().unwrap().trim_end_matches("/mcp").to_owned();
    let url = format!("http://127.0.0.1:{port}/mcp");
    assert_eq!(initialize_with_host_header(&server, &url, &format!("my-machine.lan:{port}")), 200);
}

#[test]
fn every_message_is_answered_and_every_id_honoured() {
    let mut server = StdioServer::initialized(&[], &[]);
    // A batch: one error reply, id null.
    server.send_raw(b"[{\"jsonrpc\":\"2.0\",\"id\":901,\"method\":\"ping\"}]\n");
    let reply = server
        .wait_for(|m| m["error"]["message"].as_str().is_some_and(|t| t.contains("batch")), common::DEFAULT_WAIT)
        .expect("a batch is refused");
    assert_eq!((reply["id"].clone(), reply["error"]["code"].clone()), (Value::Null, json!(-32600)), "{reply}");
    assert!(reply.as_object().unwrap().contains_key("id"), "the reply carries id: null: {reply}");
    // Ids that are no string or integer: an error reply with id null.
    for id in ["null", "{\"n\":1}", "2.5"] {
        server.send_raw(format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/list\"}}\n").as_bytes());
        let reply = server
            .wait_for(
                |m| m["error"]["message"].as_str().is_some_and(|t| t.contains("the id must be")),
                common::DEFAULT_WAIT,
            )
            .unwrap_or_else(|| panic!("no reply for id {id}"));
        assert_eq!(reply["id"], Value::Null, "{reply}");
        assert_eq!(reply["error"]["code"], json!(-32600), "{reply}");
    }
    // Malformed tools/call params: invalid params, not method-not-found.
    for params in [json!({}), json!({"name": 5}), json!({"name": "count_distinct", "arguments": 5})] {
        let reply = server.request("tools/call", params.clone());
        assert_eq!(reply["error"]["code"], json!(-32602), "{params}: {reply}");
    }
    // A second request with the id of one still running is refused, and the
    // first still gets its own answer.
    let id = server.next_id();
    let slow = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                      "params": {"name": "duplicate_report", "arguments": common::slow_arguments(600)}});
    server.send(&slow);
    server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                        "params": {"name": "count_distinct", "arguments": small_call_arguments()}}));
    let refused = server.wait_for_id(&json!(id), common::DEFAULT_WAIT);
    assert_eq!(refused["error"]["code"], json!(-32600), "{refused}");
    assert!(refused["error"]["message"].as_str().unwrap().contains("already in use"), "{refused}");
    let answered = server.wait_for_id(&json!(id), common::DEFAULT_WAIT);
    assert!(text_of(&answered["result"]).contains("duplicate_report"), "not the first call's answer: {answered}");
    // Once answered, the id may be used again.
    server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                        "params": {"name": "count_distinct", "arguments": small_call_arguments()}}));
    let again = server.wait_for_id(&json!(id), common::DEFAULT_WAIT);
    assert_eq!(again["result"]["structuredContent"]["tool"], json!("count_distinct"), "{again}");
}
