#!/usr/bin/env bash
# The gates that need no build, run first by scripts/test-all.sh:
#   cargo fmt --check                     Rust formatting (rustfmt.toml)
#   prettier --check                      the npm package's JavaScript: src, test,
#                                         playground, bench, examples (npm/.prettierrc.json),
#                                         and packaging/'s (the npm launcher, the install tests)
#   tsc -p npm                            the declarations and the Node example, strictly
#                                         (npm/tsconfig.json), nothing emitted
# Needs the npm dev dependencies (scripts/ensure-tools.sh). To fix formatting:
#   cargo fmt --all && (cd npm && npx prettier --write '{src,test,playground,bench,examples}/**/*.{js,mjs,cjs}' \
#     && npx prettier --config .prettierrc.json --write '../packaging/**/*.{js,mjs,cjs}')
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

cargo fmt --all --check
cd npm
node_modules/.bin/prettier --check --log-level warn '{src,test,playground,bench,examples}/**/*.{js,mjs,cjs}'
# Outside npm/, prettier would not find the config by itself.
node_modules/.bin/prettier --config .prettierrc.json --check --log-level warn '../packaging/**/*.{js,mjs,cjs}'
node_modules/.bin/tsc -p .
echo "check-style: Rust and JavaScript formatting, and the declarations' types, are as they should be"
