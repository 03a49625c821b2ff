//! Run one check natively on arguments read from a file, for profiling:
//!
//!     cargo run --release -p mcp-validation-core --example call_file -- \
//!         validate_rows args.json [data.csv | -] [repeat]
//!
//! With a CSV file, its bytes go beside the arguments
//! (`call_tool_with_csv`), as the host hands a file behind `--data-root` to
//! the module: the call is the one with `csv` set to the file's text. Prints
//! the time of each call and the result's size on stderr; the result of the
//! last call on stdout.

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [tool, arguments, rest @ ..] = args.as_slice() else {
        eprintln!("usage: call_file TOOL ARGS.json [DATA.csv] [REPEAT]");
        std::process::exit(2);
    };
    let bytes = std::fs::read(arguments).expect("read the arguments");
    let csv = rest.first().filter(|path| path.as_str() != "-").map(|path| std::fs::read(path).expect("read the CSV"));
    let repeat: usize = rest.get(1).map_or(1, |n| n.parse().expect("REPEAT is a number"));
    let mut last = String::new();
    for _ in 0..repeat {
        let start = Instant::now();
        let result = match &csv {
            None => validation_core::call_tool_json(tool, &bytes),
            Some(csv) => {
                let args: serde_json::Value = serde_json::from_slice(&bytes).expect("arguments JSON");
                validation_core::call_tool_with_csv(tool, args, csv.clone()).map(|output| output.to_json_text())
            }
        };
        last = match result {
            Ok(result) => result,
            Err(err) => err.to_json().to_string(),
        };
        eprintln!("{tool}: {:.3} ms, {} bytes out", start.elapsed().as_secs_f64() * 1e3, last.len());
    }
    println!("{last}");
}
