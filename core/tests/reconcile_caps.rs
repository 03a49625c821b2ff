//! `reconcile` honours `max_listed` like every other list (issue 17): the
//! movements echoed and the findings are capped, the sums and counts are not.

use serde_json::{json, Value};
use validation_core::call_tool;

#[test]
fn max_listed_caps_the_movements_echoed_and_keeps_every_sum() {
    // 1,000 movements of 1.00 in, opening 0, closing 1,000: it closes.
    let movements: Vec<Value> = (0..1000).map(|_| json!(1.0)).collect();
    let args = json!({"opening_balance": 0, "movements": movements, "closing_balance": 1000});
    let full = call_tool("reconcile", &args).unwrap();
    let mut capped_args = args.clone();
    capped_args["max_listed"] = json!(10);
    let capped = call_tool("reconcile", &capped_args).unwrap();

    assert_eq!(full["movements"].as_array().unwrap().len(), 1000);
    assert_eq!(capped["movements"].as_array().unwrap().as_slice(), &full["movements"].as_array().unwrap()[..10]);
    assert_eq!(capped["movements_omitted"], 990);
    for key in ["closes", "movements_net", "variance", "movement_counts", "movement_totals", "verdict", "ok"] {
        assert_eq!(capped[key], full[key], "{key}");
    }
    let note = capped["findings"].as_array().unwrap().iter().find(|f| f["code"] == "result_abridged").unwrap();
    assert!(note["message"].as_str().unwrap().contains("990 from `movements`"), "{}", note["message"]);
    assert!(note["message"].as_str().unwrap().contains("all 1000 movements"), "{}", note["message"]);
    // Uncapped, nothing is said: the result is the reference's.
    assert!(full.get("movements_omitted").is_none());
}

#[test]
fn the_findings_of_unreadable_movements_are_capped_and_counted() {
    // 30 unreadable movements: 30 findings, then the one that withholds the verdict.
    let movements: Vec<Value> = (0..30).map(|n| json!(format!("x{n}"))).collect();
    let args = json!({"opening_balance": 0, "movements": movements, "closing_balance": 0, "max_listed": 5});
    let result = call_tool("reconcile", &args).unwrap();
    assert_eq!(result["finding_count"], 32, "31 findings and the note that some are not listed");
    assert_eq!(result["findings_omitted"], 26);
    assert_eq!(result["findings"].as_array().unwrap().len(), 6);
    assert_eq!(result["closes"], Value::Null);
    assert_eq!(result["movement_counts"]["unreadable"], 30);
}
