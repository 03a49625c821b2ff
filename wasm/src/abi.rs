//! The plain byte-buffer ABI, for hosts that are not JavaScript.
//!
//! A host that runs the `.wasm` module without the wasm-bindgen glue (the
//! native wasmtime MCP host, or any other runtime) uses only these
//! exports. None of them reaches a JS import, so a host may define every
//! `__wbindgen_*`/`__wbg_*` import as a trap and never call `__wbindgen_start`.
//!
//! ```text
//! mcpv_alloc(len: u32) -> u32
//!     A buffer of `len` bytes in linear memory; 0 if memory is exhausted.
//!     `len` 0 gives a non-null pointer that must not be read or written.
//! mcpv_free(ptr: u32, len: u32)
//!     Release a buffer from mcpv_alloc or mcpv_call, with the length it had.
//! mcpv_call(tool_ptr: u32, tool_len: u32, args_ptr: u32, args_len: u32) -> u64
//!     Run one check. `tool` is the tool name (UTF-8), `args` the arguments as
//!     a JSON object (UTF-8 JSON text). `tool` stays the caller's. `args`,
//!     when not empty, must be a buffer from mcpv_alloc(args_len), and passes
//!     to the module: mcpv_call frees it as soon as it has read it (so the
//!     text and its parsed tree are not both held while the check runs); the
//!     caller must not free or reuse it. Returns `(ptr << 32) | len` of a new result buffer, which the
//!     caller frees with mcpv_free(ptr, len). Its first byte is a status:
//!       0  the rest is the JSON result envelope (a failing dataset is here too);
//!       1  the rest is a JSON argument error:
//!          {"code": "<ErrorCode::as_str>", "message": "...", "argument": "..." | null,
//!           "location": "columns[2].pattern" | null, "line": 12 | null}
//! mcpv_call_csv(tool_ptr: u32, tool_len: u32, args_ptr: u32, args_len: u32,
//!               csv_ptr: u32, csv_len: u32) -> u64
//!     mcpv_call with the `csv` argument given beside the others, as raw
//!     UTF-8 text rather than a JSON string: the call whose arguments are
//!     `args` with "csv" set to that text. `csv`, when not empty, must be a
//!     buffer from mcpv_alloc(csv_len) and passes to the module, which reads
//!     it in place (a host that read a CSV file need not escape it into JSON,
//!     and the module need not unescape a copy). Text that is not UTF-8 is
//!     an argument error naming "csv".
//! mcpv_call_export(tool_ptr: u32, tool_len: u32, args_ptr: u32, args_len: u32,
//!                  csv_ptr: u32, csv_len: u32, csv_given: u32) -> u64
//!     For a host that writes files: mcpv_call (csv_given 0, csv ignored) or
//!     mcpv_call_csv (csv_given 1), except that a `validate_rows` call with
//!     `export` also hands back the files of its whole split. Its result
//!     buffer then has status 2:
//!       2  a u32 (little-endian) file count n, then n spans of four u32s
//!          (name_ptr, name_len, data_ptr, data_len: each file's name and
//!          bytes, in linear memory, in the order of the result's
//!          `export.files`), then the JSON result envelope.
//!     The files stay in memory until the instance is dropped (a host reads
//!     them in place, so the split is never copied out whole). A call with
//!     no files answers with status 0 or 1, as mcpv_call does.
//! mcpv_parts(tool_ptr: u32, tool_len: u32, args_ptr: u32, args_len: u32) -> u32
//!     1 if the call may be checked in parts of its rows, each in its own
//!     instance, and merged to the result of the whole call
//!     (`validation_core::checks_in_parts`); 0 if not, or if the arguments
//!     are not valid (the whole call then says why). `args` are the call's
//!     arguments without its rows: without the `csv` that would be given
//!     beside them (mcpv_call_csv), or with `"rows": []`. They pass to the
//!     module, as for mcpv_call.
//! mcpv_call_part(tool_ptr: u32, tool_len: u32, args_ptr: u32, args_len: u32,
//!                head_ptr: u32, head_len: u32, kind: u32,
//!                csv_ptr: u32, csv_len: u32) -> u64
//!     Check one part of the call's rows (`validation_core::call_part`), of
//!     one of three kinds: 0, a CSV text's start (`csv`; head ignored); 1,
//!     CSV records that follow the header (`csv`), with `head` the text's
//!     first lines, up to a line break after the header (`head` stays the
//!     caller's); 2, a part of a `rows` array, given as `args`' `rows`
//!     (head and csv ignored). `csv` passes to the module as for
//!     mcpv_call_csv. Status 0: the part's report, JSON that only
//!     mcpv_merge reads; status 1: an argument error, also when a part
//!     cannot be read as one (a caller then makes the whole call at once).
//! mcpv_merge(tool_ptr: u32, tool_len: u32, args_ptr: u32, args_len: u32,
//!            parts_ptr: u32, parts_len: u32) -> u64
//!     The call's result from its parts' reports: `parts` is a JSON array
//!     of each part's report (mcpv_call_part's status-0 JSON), in the parts'
//!     order; it passes to the module as `csv` does. `args` as for
//!     mcpv_parts. Status 0 or 1, as for mcpv_call.
//! ```
//!
//! Memory can grow during any call, so a host must re-read the memory's base
//! and size after each call rather than keep a view from before it. A trap
//! (out of memory, or a bug in the core) is the only other outcome; there is no
//! panic hook, so a panic traps without calling out of the module.

use validation_core::ToolError;

/// First byte of a result buffer holding the JSON result envelope.
pub const STATUS_OK: u8 = 0;
/// First byte of a result buffer holding a JSON argument error.
pub const STATUS_ARGUMENT_ERROR: u8 = 1;
/// First byte of a result buffer holding the spans of an export's files,
/// then the JSON result envelope (`mcpv_call_export`).
pub const STATUS_OK_WITH_FILES: u8 = 2;

/// Where one exported file lies in linear memory: its name's address and
/// length, then its bytes' address and length.
pub type FileSpan = [u32; 4];

/// Run the check named by the UTF-8 bytes `tool` on the JSON text `args_json`,
/// and encode the outcome as a result buffer (status byte, then JSON).
///
/// A tool name that is not UTF-8 is decoded lossily rather than refused here:
/// it then names no tool, and the core answers with its own `unknown_tool`
/// error, so the ABI adds no error of its own.
pub fn call(tool: &[u8], args_json: &[u8]) -> Vec<u8> {
    call_parsed(tool, validation_core::parse_arguments(args_json))
}

/// [`call`] on arguments already read from their text (or the error reading
/// them), so a caller can free the text first. The result's text is written
/// without a growing buffer (see `json_text.rs`).
pub fn call_parsed(tool: &[u8], args: Result<validation_core::Arguments, ToolError>) -> Vec<u8> {
    let name = String::from_utf8_lossy(tool);
    encoded(args.and_then(|args| validation_core::call_tool_output(&name, args)))
}

/// [`call_parsed`] with the `csv` argument given beside the others as raw
/// bytes (see `mcpv_call_csv`), taken over without a copy.
pub fn call_parsed_with_csv(tool: &[u8], args: Result<validation_core::Arguments, ToolError>, csv: Vec<u8>) -> Vec<u8> {
    let name = String::from_utf8_lossy(tool);
    encoded(args.and_then(|args| validation_core::call_tool_with_csv(&name, args, csv)))
}

/// [`call_parsed`] (or [`call_parsed_with_csv`]) for a host that writes
/// files: the files of an `export` are handed to `place`, which keeps them
/// where they outlive the call and says where; the result buffer lists those
/// spans before the JSON (status [`STATUS_OK_WITH_FILES`]). Without files it
/// is the buffer the other calls return.
pub fn call_exporting(
    tool: &[u8],
    args: Result<validation_core::Arguments, ToolError>,
    csv: Option<Vec<u8>>,
    mut place: impl FnMut(validation_core::ExportFile) -> FileSpan,
) -> Vec<u8> {
    let name = String::from_utf8_lossy(tool);
    match args.and_then(|args| validation_core::call_tool_exporting(&name, args, csv)) {
        Ok((result, files)) if files.is_empty() => crate::json_text::prefixed_json(STATUS_OK, result),
        Ok((result, files)) => {
            let mut table = vec![STATUS_OK_WITH_FILES];
            table.extend_from_slice(&(files.len() as u32).to_le_bytes());
            for file in files {
                for word in place(file) {
                    table.extend_from_slice(&word.to_le_bytes());
                }
            }
            crate::json_text::json_after(&table, result)
        }
        Err(err) => with_status(STATUS_ARGUMENT_ERROR, error_json(&err).as_bytes()),
    }
}

/// Whether the call may be checked in parts (see `mcpv_parts`).
pub fn parts(tool: &[u8], args: Result<validation_core::Arguments, ToolError>) -> bool {
    args.is_ok_and(|args| validation_core::checks_in_parts(&String::from_utf8_lossy(tool), args))
}

/// One part of a call's rows, checked (see `mcpv_call_part`): CSV text
/// (`csv`, after `head` unless it is the text's start) or, without `csv`,
/// the rows `args` give.
pub fn call_part(
    tool: &[u8],
    args: Result<validation_core::Arguments, ToolError>,
    head: Option<&[u8]>,
    csv: Option<Vec<u8>>,
) -> Vec<u8> {
    let name = String::from_utf8_lossy(tool);
    encoded(args.and_then(|args| validation_core::call_part(&name, args, head, csv).map(validation_core::Output::from)))
}

/// A call's result from its parts' reports (see `mcpv_merge`).
pub fn merge(tool: &[u8], args: Result<validation_core::Arguments, ToolError>, parts: &[u8]) -> Vec<u8> {
    let name = String::from_utf8_lossy(tool);
    encoded(args.and_then(|args| validation_core::merge_parts(&name, args, parts)))
}

/// A result buffer: status 0 and the JSON, or status 1 and the argument error.
fn encoded(result: Result<validation_core::Output, ToolError>) -> Vec<u8> {
    match result {
        Ok(result) => crate::json_text::prefixed_json(STATUS_OK, result),
        Err(err) => with_status(STATUS_ARGUMENT_ERROR, error_json(&err).as_bytes()),
    }
}

/// The JSON form of an argument error ([`ToolError::to_json`]), as text.
pub fn error_json(err: &ToolError) -> String {
    err.to_json().to_string()
}

fn with_status(status: u8, json: &[u8]) -> Vec<u8> {
    let mut buffer = Vec::with_capacity(json.len() + 1);
    buffer.push(status);
    buffer.extend_from_slice(json);
    buffer
}

/// Pack a result buffer's address and length into `mcpv_call`'s return value.
pub fn pack(ptr: u32, len: u32) -> u64 {
    (u64::from(ptr) << 32) | u64::from(len)
}

/// Split `mcpv_call`'s return value into the result buffer's address and length.
pub fn unpack(packed: u64) -> (u32, u32) {
    ((packed >> 32) as u32, packed as u32)
}

/// The exported functions. Pointers are `u32` because they are wasm32 linear
/// memory offsets, so these exist only when compiling for wasm32; natively the
/// logic above is tested directly.
#[cfg(target_arch = "wasm32")]
// A raw ABI is unsafe by nature: unmangled exports, and buffers that arrive
// as bare addresses in linear memory and must be read, allocated and freed
// as such. Nothing else in the crate needs `unsafe`.
#[allow(unsafe_code)]
pub mod exports {
    use std::alloc::{alloc, dealloc, Layout};

    // Every buffer is a byte array with alignment 1; a zero length still gets a
    // one-byte allocation so alloc and free agree on the layout without a
    // special case for a dangling pointer. None for a size no allocation can
    // have (over isize::MAX on wasm32).
    fn layout(len: u32) -> Option<Layout> {
        Layout::from_size_align(len.max(1) as usize, 1).ok()
    }

    /// `mcpv_alloc(len) -> ptr`; see the module documentation.
    #[no_mangle]
    pub extern "C" fn mcpv_alloc(len: u32) -> u32 {
        let Some(layout) = layout(len) else { return 0 };
        // SAFETY: the layout has a non-zero size. A null result (memory
        // exhausted) becomes 0, which the caller checks.
        let ptr = unsafe { alloc(layout) };
        ptr as usize as u32
    }

    /// `mcpv_free(ptr, len)`; see the module documentation.
    #[no_mangle]
    pub extern "C" fn mcpv_free(ptr: u32, len: u32) {
        let Some(layout) = layout(len) else { return };
        if ptr == 0 {
            return;
        }
        // SAFETY: the caller returns a buffer it received from mcpv_alloc or
        // mcpv_call with that buffer's length, which is how it was allocated
        // (a result buffer is a Box<[u8]> of exactly `len` >= 1 bytes).
        unsafe { dealloc(ptr as usize as *mut u8, layout) }
    }

    /// `mcpv_call(tool_ptr, tool_len, args_ptr, args_len) -> (ptr << 32) | len`;
    /// see the module documentation.
    #[no_mangle]
    pub extern "C" fn mcpv_call(tool_ptr: u32, tool_len: u32, args_ptr: u32, args_len: u32) -> u64 {
        // SAFETY: the caller guarantees each (ptr, len) is a readable buffer it
        // owns for the duration of the call, and gives up the arguments'.
        let (tool, args) = unsafe { tool_and_arguments(tool_ptr, tool_len, args_ptr, args_len) };
        handed_out(super::call_parsed(tool, args))
    }

    /// `mcpv_call_csv(tool_ptr, tool_len, args_ptr, args_len, csv_ptr, csv_len)
    /// -> (ptr << 32) | len`; see the module documentation.
    #[no_mangle]
    pub extern "C" fn mcpv_call_csv(
        tool_ptr: u32,
        tool_len: u32,
        args_ptr: u32,
        args_len: u32,
        csv_ptr: u32,
        csv_len: u32,
    ) -> u64 {
        // SAFETY: as for mcpv_call.
        let (tool, args) = unsafe { tool_and_arguments(tool_ptr, tool_len, args_ptr, args_len) };
        // SAFETY: the caller gives up a buffer from mcpv_alloc(csv_len).
        let csv = unsafe { taken(csv_ptr, csv_len) };
        handed_out(super::call_parsed_with_csv(tool, args, csv))
    }

    /// `mcpv_call_export(tool_ptr, tool_len, args_ptr, args_len, csv_ptr,
    /// csv_len, csv_given) -> (ptr << 32) | len`; see the module documentation.
    #[no_mangle]
    pub extern "C" fn mcpv_call_export(
        tool_ptr: u32,
        tool_len: u32,
        args_ptr: u32,
        args_len: u32,
        csv_ptr: u32,
        csv_len: u32,
        csv_given: u32,
    ) -> u64 {
        // SAFETY: as for mcpv_call.
        let (tool, args) = unsafe { tool_and_arguments(tool_ptr, tool_len, args_ptr, args_len) };
        // SAFETY: as for mcpv_call_csv.
        let csv = (csv_given != 0).then(|| unsafe { taken(csv_ptr, csv_len) });
        handed_out(super::call_exporting(tool, args, csv, |file| {
            let (name_ptr, name_len) = leak(file.name.into_bytes());
            let (data_ptr, data_len) = leak(file.bytes);
            [name_ptr, name_len, data_ptr, data_len]
        }))
    }

    /// `mcpv_parts(tool_ptr, tool_len, args_ptr, args_len) -> 0 | 1`; see
    /// the module documentation.
    #[no_mangle]
    pub extern "C" fn mcpv_parts(tool_ptr: u32, tool_len: u32, args_ptr: u32, args_len: u32) -> u32 {
        // SAFETY: as for mcpv_call.
        let (tool, args) = unsafe { tool_and_arguments(tool_ptr, tool_len, args_ptr, args_len) };
        u32::from(super::parts(tool, args))
    }

    /// `mcpv_call_part(tool_ptr, tool_len, args_ptr, args_len, head_ptr,
    /// head_len, head_given, csv_ptr, csv_len) -> (ptr << 32) | len`; see
    /// the module documentation.
    #[no_mangle]
    #[allow(clippy::too_many_arguments)]
    pub extern "C" fn mcpv_call_part(
        tool_ptr: u32,
        tool_len: u32,
        args_ptr: u32,
        args_len: u32,
        head_ptr: u32,
        head_len: u32,
        kind: u32,
        csv_ptr: u32,
        csv_len: u32,
    ) -> u64 {
        // SAFETY: as for mcpv_call.
        let (tool, args) = unsafe { tool_and_arguments(tool_ptr, tool_len, args_ptr, args_len) };
        // SAFETY: the caller guarantees the head is a readable buffer for the call.
        let head = (kind == 1).then(|| unsafe { input(head_ptr, head_len) });
        // SAFETY: as for mcpv_call_csv.
        let csv = (kind != 2).then(|| unsafe { taken(csv_ptr, csv_len) });
        handed_out(super::call_part(tool, args, head, csv))
    }

    /// `mcpv_merge(tool_ptr, tool_len, args_ptr, args_len, parts_ptr,
    /// parts_len) -> (ptr << 32) | len`; see the module documentation.
    #[no_mangle]
    pub extern "C" fn mcpv_merge(
        tool_ptr: u32,
        tool_len: u32,
        args_ptr: u32,
        args_len: u32,
        parts_ptr: u32,
        parts_len: u32,
    ) -> u64 {
        // SAFETY: as for mcpv_call.
        let (tool, args) = unsafe { tool_and_arguments(tool_ptr, tool_len, args_ptr, args_len) };
        // SAFETY: as for mcpv_call_csv.
        let parts = unsafe { taken(parts_ptr, parts_len) };
        handed_out(super::merge(tool, args, &parts))
    }

    /// A call's tool name and parsed arguments. The arguments' text is the
    /// module's (see the module documentation): freed once read, so a large
    /// call does not hold the text and its tree for the whole check.
    ///
    /// # Safety
    /// `(tool_ptr, tool_len)` must be a readable buffer for the duration of
    /// the call, and `(args_ptr, args_len)` a buffer from
    /// `mcpv_alloc(args_len)` that the caller gives up.
    unsafe fn tool_and_arguments<'a>(
        tool_ptr: u32,
        tool_len: u32,
        args_ptr: u32,
        args_len: u32,
    ) -> (&'a [u8], Result<validation_core::Arguments, super::ToolError>) {
        // SAFETY: as the caller guarantees.
        let tool = unsafe { input(tool_ptr, tool_len) };
        let args = validation_core::parse_arguments(unsafe { input(args_ptr, args_len) });
        if args_len > 0 {
            mcpv_free(args_ptr, args_len);
        }
        (tool, args)
    }

    /// A result handed to the host: its buffer, which the host frees with
    /// `mcpv_free`, as `(ptr << 32) | len`.
    fn handed_out(result: Vec<u8>) -> u64 {
        let result = result.into_boxed_slice();
        let len = result.len() as u32;
        let ptr = Box::into_raw(result).cast::<u8>() as usize as u32;
        super::pack(ptr, len)
    }

    /// Keep `bytes` in linear memory for the rest of the instance's life
    /// (the host reads them after the call; the instance is dropped after
    /// that), and say where they are.
    fn leak(bytes: Vec<u8>) -> (u32, u32) {
        let bytes = Box::leak(bytes.into_boxed_slice());
        (bytes.as_ptr() as usize as u32, bytes.len() as u32)
    }

    /// A buffer from `mcpv_alloc(len)` that the caller gives up, as a `Vec`
    /// that owns it (empty for a length of 0, whatever the pointer).
    ///
    /// # Safety
    /// `(ptr, len)` must be a buffer from `mcpv_alloc(len)` that nothing else
    /// uses or frees afterwards.
    unsafe fn taken(ptr: u32, len: u32) -> Vec<u8> {
        if len == 0 {
            return Vec::new();
        }
        // SAFETY: the buffer was allocated with the layout of a boxed byte
        // slice of len bytes (size len >= 1, alignment 1), so the box owns it
        // and frees it as one.
        let bytes = std::ptr::slice_from_raw_parts_mut(ptr as usize as *mut u8, len as usize);
        unsafe { Box::from_raw(bytes) }.into_vec()
    }

    unsafe fn input<'a>(ptr: u32, len: u32) -> &'a [u8] {
        if len == 0 {
            // The pointer may be anything (even 0) when there are no bytes.
            &[]
        } else {
            unsafe { std::slice::from_raw_parts(ptr as usize as *const u8, len as usize) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn decode(buffer: &[u8]) -> (u8, Value) {
        let (status, json) = buffer.split_first().expect("a result buffer is never empty");
        (*status, serde_json::from_slice(json).expect("the payload is JSON"))
    }

    #[test]
    fn every_call_encodes_exactly_what_the_core_returns() {
        // Whatever the core answers (stub or real), the buffer carries it
        // unchanged: status 0 with the core's JSON text, or status 1 with its error.
        let args = br#"{"rows": [{"id": "A"}], "key": "id", "columns": [{"name": "id"}]}"#;
        for tool in validation_core::TOOL_NAMES {
            let buffer = call(tool.as_bytes(), args);
            match validation_core::call_tool_json(tool, args) {
                Ok(json) => {
                    assert_eq!(buffer[0], STATUS_OK, "{tool}");
                    assert_eq!(&buffer[1..], json.as_bytes(), "{tool}");
                }
                Err(err) => {
                    assert_eq!(buffer[0], STATUS_ARGUMENT_ERROR, "{tool}");
                    assert_eq!(&buffer[1..], error_json(&err).as_bytes(), "{tool}");
                }
            }
        }
    }

    #[test]
    fn an_export_lists_its_files_before_the_json() {
        let args = serde_json::json!({"columns": [{"name": "n", "type": "integer"}], "export": {"dir": "out"}});
        let mut placed = Vec::new();
        let buffer = call_exporting(b"validate_rows", Ok(args.into()), Some(b"n\n1\nx\n".to_vec()), |file| {
            placed.push(file);
            let at = placed.len() as u32;
            [at, 10 * at, 100 * at, 1000 * at]
        });
        assert_eq!(buffer[0], STATUS_OK_WITH_FILES);
        let names: Vec<&str> = placed.iter().map(|file| file.name.as_str()).collect();
        assert_eq!(names, ["accepted.csv", "quarantine.csv", "findings.jsonl"]);
        assert_eq!(placed[0].bytes, b"n\n1\n", "the accepted record, under the header");
        assert_eq!(&buffer[1..5], 3u32.to_le_bytes());
        let words: Vec<u32> =
            buffer[5..5 + 48].chunks(4).map(|word| u32::from_le_bytes(word.try_into().unwrap())).collect();
        assert_eq!(words, [1, 10, 100, 1000, 2, 20, 200, 2000, 3, 30, 300, 3000]);
        let result: Value = serde_json::from_slice(&buffer[53..]).unwrap();
        assert_eq!(result["export"]["files"][1]["rows"], 1, "the row with n = x");
        // Without `export`, the buffer is the one mcpv_call_csv returns.
        let plain = serde_json::json!({"columns": [{"name": "n", "type": "integer"}]});
        let buffer =
            call_exporting(b"validate_rows", Ok(plain.clone().into()), Some(b"n\n1\n".to_vec()), |_| unreachable!());
        assert_eq!(buffer, call_parsed_with_csv(b"validate_rows", Ok(plain.into()), b"n\n1\n".to_vec()));
        // And the other entry points refuse `export`.
        let refused = call(b"validate_rows", br#"{"rows": [], "export": {"dir": "out"}}"#);
        assert_eq!(refused[0], STATUS_ARGUMENT_ERROR);
    }

    #[test]
    fn csv_beside_the_arguments_is_the_call_with_csv_inside_them() {
        let csv = "id,n\nA,1\n\"B,b\",x\n";
        let inside = serde_json::json!({"columns": [{"name": "n", "type": "integer"}], "csv": csv});
        let beside = r#"{"columns": [{"name": "n", "type": "integer"}]}"#;
        let expected = call(b"validate_rows", inside.to_string().as_bytes());
        let buffer = call_parsed_with_csv(
            b"validate_rows",
            validation_core::parse_arguments(beside.as_bytes()),
            csv.as_bytes().to_vec(),
        );
        assert_eq!(decode(&buffer), decode(&expected));
        assert_eq!(decode(&buffer).1["summary"]["quarantined"], 1, "the row with n = x");
        // Bytes that are not UTF-8 are refused, naming the argument and the offset.
        let buffer = call_parsed_with_csv(b"validate_rows", Ok(serde_json::json!({}).into()), b"id\n\xff\n".to_vec());
        let (status, error) = decode(&buffer);
        assert_eq!(status, STATUS_ARGUMENT_ERROR);
        assert_eq!((error["code"].as_str(), error["argument"].as_str()), (Some("invalid_argument"), Some("csv")));
        assert!(error["message"].as_str().unwrap().contains("offset 3"), "{error}");
    }

    #[test]
    fn a_call_in_parts_merges_to_the_call_on_the_whole_text() {
        // The ABI only carries the core's answers (core/tests/csv_parts.rs
        // holds them to the whole text's): a part's report goes into the
        // merge as the JSON it came out as.
        let args = r#"{"columns": [{"name": "n", "type": "integer"}], "max_listed": 25}"#;
        let parsed = || validation_core::parse_arguments(args.as_bytes());
        assert!(parts(b"validate_rows", parsed()));
        // Uncapped lists are not checked in parts (validate::checks_in_parts).
        let uncapped = br#"{"columns": [{"name": "n", "type": "integer"}]}"#;
        assert!(!parts(b"validate_rows", validation_core::parse_arguments(uncapped)));
        assert!(!parts(b"validate_rows", validation_core::parse_arguments(br#"{"columns": 1}"#)));
        let first = call_part(b"validate_rows", parsed(), None, Some(b"id,n\nA,1\n".to_vec()));
        let second = call_part(b"validate_rows", parsed(), Some(b"id,n\n"), Some(b"B,x\n".to_vec()));
        assert_eq!((first[0], second[0]), (STATUS_OK, STATUS_OK));
        let reports = [&b"["[..], &first[1..], b",", &second[1..], b"]"].concat();
        let merged = merge(b"validate_rows", parsed(), &reports);
        let whole = call_parsed_with_csv(b"validate_rows", parsed(), b"id,n\nA,1\nB,x\n".to_vec());
        assert_eq!(merged, whole);
        assert_eq!(decode(&merged).1["quarantine"][0]["locator"]["line"], 3);
        // A part cut inside a quoted field refuses.
        let refused = call_part(b"validate_rows", parsed(), None, Some(b"id,n\n\"A\n".to_vec()));
        assert_eq!(refused[0], STATUS_ARGUMENT_ERROR);
    }

    #[test]
    fn a_large_result_is_the_cores_text_verbatim() {
        // A large result text (counted, then written: see json_text.rs), with
        // floats whose kind (20.0, not 20) and keys whose order must come
        // through as they are.
        let rows: Vec<String> =
            (0..20_000).map(|i| format!(r#"{{"id": "C{}", "n": 20.0, "a": "x"}}"#, i % 15_000)).collect();
        let args = format!(r#"{{"rows": [{}], "key": "id"}}"#, rows.join(","));
        let expected = validation_core::call_tool_json("count_distinct", args.as_bytes()).expect("a valid call");
        assert!(expected.len() > 2 << 20, "{} bytes is not a large result", expected.len());
        let buffer = call(b"count_distinct", args.as_bytes());
        assert_eq!(buffer[0], STATUS_OK);
        assert!(&buffer[1..] == expected.as_bytes(), "the ABI's text differs from the core's");
    }

    #[test]
    fn an_unknown_tool_is_the_cores_unknown_tool_error() {
        let (status, error) = decode(&call(b"no_such_tool", b"{}"));
        assert_eq!(status, STATUS_ARGUMENT_ERROR);
        assert_eq!(error["code"], "unknown_tool");
        assert_eq!(error["message"], "Unknown tool: no_such_tool");
        assert_eq!(error["argument"], Value::Null);
    }

    #[test]
    fn a_tool_name_that_is_not_utf8_names_no_tool() {
        let (status, error) = decode(&call(b"validate_rows\xff", b"{}"));
        assert_eq!(status, STATUS_ARGUMENT_ERROR);
        assert_eq!(error["code"], "unknown_tool");
    }

    #[test]
    fn arguments_that_are_not_json_are_the_cores_invalid_json_error() {
        for args in [&b"{"[..], b"", b"\xff\xfe"] {
            let (status, error) = decode(&call(b"count_distinct", args));
            assert_eq!(status, STATUS_ARGUMENT_ERROR);
            assert_eq!(error["code"], "invalid_json", "{args:?}");
        }
    }

    #[test]
    fn an_error_keeps_code_message_argument_location_line_in_that_order() {
        let err = ToolError {
            code: validation_core::ErrorCode::InvalidArgument,
            message: "key must be \"x\"".to_owned(),
            argument: Some("key".to_owned()),
            location: Some("key".to_owned()),
            line: None,
        };
        assert_eq!(
            error_json(&err),
            r#"{"code":"invalid_argument","message":"key must be \"x\"","argument":"key","location":"key","line":null}"#
        );
    }

    #[test]
    fn pack_and_unpack_are_inverse_at_the_extremes() {
        for (ptr, len) in [(0, 0), (1, 2), (u32::MAX, 0), (0, u32::MAX), (u32::MAX, u32::MAX)] {
            let packed = pack(ptr, len);
            assert_eq!(unpack(packed), (ptr, len));
        }
        assert_eq!(pack(0x1234, 0x10), 0x0000_1234_0000_0010);
    }
}
