//! The machine the figures came from, printed at the top of the report.

use std::path::Path;
use std::process::Command;

/// `key: value` lines describing this machine and the toolchain.
pub(crate) fn describe(reference_python: &Path, node: &str, server: &Path) -> Vec<(String, String)> {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo
        .lines()
        .find_map(|line| line.strip_prefix("model name"))
        .map_or_else(|| "unknown".into(), |rest| rest.trim_start_matches([' ', '\t', ':']).trim().to_owned());
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    let memory = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|line| line.strip_prefix("MemTotal:"))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or_else(|| "unknown".into(), |kib| format!("{:.1} GiB", kib as f64 / f64::from(1 << 20)));
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map_or_else(|_| "unknown".into(), |text| format!("Linux {}", text.trim()));
    let os = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|line| line.strip_prefix("PRETTY_NAME="))
                .map(|name| name.trim_matches('"').to_owned())
        })
        .unwrap_or_else(|| "unknown".into());
    let python = output(reference_python.to_string_lossy().as_ref(), &["--version"]);
    let server_version = output(server.to_string_lossy().as_ref(), &["--version"]).replace('\n', "; ");
    vec![
        ("CPU".into(), format!("{cpu}, {cores} cores available")),
        ("memory".into(), memory),
        ("system".into(), format!("{kernel}, {os}")),
        ("rustc".into(), output("rustc", &["--version"])),
        ("node".into(), output(node, &["--version"])),
        ("reference".into(), format!("mcp-validation-server 0.1.0 on {python}")),
        ("this project".into(), server_version),
    ]
}

fn output(program: &str, args: &[&str]) -> String {
    Command::new(program).args(args).output().ok().filter(|out| out.status.success()).map_or_else(
        || format!("{program}: not found"),
        |out| {
            let text = if out.stdout.is_empty() { out.stderr } else { out.stdout };
            String::from_utf8_lossy(&text).trim().to_owned()
        },
    )
}
