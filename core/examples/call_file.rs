//! Run one check natively on arguments read from a file, for profiling:
//!
//!     cargo run --release -p mcp-validation-core --example call_file -- \
//!         validate_rows args.json [data.csv | -] [repeat]
//!
//! With a CSV file, its text is added to the arguments as `csv`. Prints the
//! time of each call and the result's size on stderr; the result of the last
//! call on stdout.

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [tool, arguments, rest @ ..] = args.as_slice() else {
        eprintln!("usage: call_file TOOL ARGS.json [DATA.csv] [REPEAT]");
        std::process::exit(2);
    };
    let mut object: serde_json::Value =
        serde_json::from_slice(&std::fs::read(arguments).expect("read the arguments")).expect("arguments JSON");
    if let Some(csv) = rest.first().filter(|path| path.as_str() != "-") {
        let text = std::fs::read_to_string(csv).expect("read the CSV");
        object["csv"] = serde_json::Value::String(text);
    }
    let repeat: usize = rest.get(1).map_or(1, |n| n.parse().expect("REPEAT is a number"));
    let bytes = serde_json::to_vec(&object).expect("serialise");
    let mut last = String::new();
    for _ in 0..repeat {
        let start = Instant::now();
        last = match validation_core::call_tool_json(tool, &bytes) {
            Ok(result) => result,
            Err(err) => err.to_json().to_string(),
        };
        eprintln!("{tool}: {:.3} ms, {} bytes out", start.elapsed().as_secs_f64() * 1e3, last.len());
    }
    println!("{last}");
}
