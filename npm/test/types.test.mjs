// The TypeScript declarations against the core's tool catalog. Type-level
// assertions are generated from the catalog the built module exports and
// compiled with tsc against types/index.d.ts: every argument each check
// takes (name, required or not, type, nullability, enum), `path` typed
// `never` (only the MCP server reads files), each result's `tool`, verdicts
// and `_omitted` counts, and the column spec's keys and enums. A change to
// the core's catalog or to the declarations that the other does not follow
// fails here.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { toolCatalog } from '../src/node.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const typesFile = join(packageDir, 'types', 'index.js');
const tsc = join(packageDir, 'node_modules', '.bin', 'tsc');

const union = (values) => (values.length ? values.map((v) => JSON.stringify(v)).join(' | ') : 'never');

// What a JSON Schema property says its values are, as a TS type (without
// null), or null when the schema leaves it open (the reference's `Any`).
function tsTypeOf(schema) {
  const variants = schema.anyOf ?? [schema];
  const types = variants.map((v) => v.type).filter((t) => t && t !== 'null');
  if (types.length !== 1) return null;
  const variant = variants.find((v) => v.type === types[0]);
  if (variant.enum) return { exact: union(variant.enum) };
  if (variant.type === 'array') {
    // `items: {}` (rows, columns) leaves the items open: the declarations may
    // say more (ColumnSpec), but must still be an array.
    const item = variant.items?.type && tsTypeOf(variant.items);
    return item ? { exact: `readonly (${item.exact})[]` } : { within: 'readonly unknown[]' };
  }
  const exact = { string: 'string', boolean: 'boolean', number: 'number', integer: 'number' }[variant.type];
  return exact ? { exact } : null;
}
const nullable = (schema) => (schema.anyOf ?? []).some((v) => v.type === 'null');

/** The assertions for one catalog, as TypeScript source. */
export function assertionsFor(catalog) {
  const lines = [
    `import type { ToolArgs, ToolResults, ColumnSpec, ColumnType, OnFail } from ${JSON.stringify(typesFile)};`,
    'type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;',
    'type Assert<T extends true> = T;',
    // Keys a member gives a type other than never, over every member of a union.
    'type Typed<T> = { [K in keyof T]-?: [Exclude<T[K], undefined>] extends [never] ? never : K }[keyof T];',
    'type TypedKeys<U> = U extends unknown ? Typed<U> : never;',
    'type OptionalIn<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T];',
    'type OptionalInSome<U> = U extends unknown ? OptionalIn<U> : never;',
    'type RequiredInAll<U> = Exclude<TypedKeys<U>, OptionalInSome<U>>;',
    'type Prop<U, K extends PropertyKey> = U extends unknown ? (K extends keyof U ? U[K] : never) : never;',
    'type NeverIn<U, K extends PropertyKey> = U extends unknown ? (K extends keyof U ? ([Exclude<U[K], undefined>] extends [never] ? true : false) : false) : never;',
    'type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
  ];
  for (const tool of catalog.tools) {
    const t = tool.name;
    const args = `ToolArgs[${JSON.stringify(t)}]`;
    const result = `ToolResults[${JSON.stringify(t)}]`;
    const id = (what) => `${t}__${what}`.replace(/[^\w]/g, '_');
    const properties = tool.input_schema.properties;
    const usable = Object.keys(properties).filter((name) => !tool.server_only_arguments.includes(name));
    lines.push(`type ${id('arguments')} = Assert<Equal<TypedKeys<${args}>, ${union(usable)}>>;`);
    lines.push(`type ${id('required')} = Assert<Equal<RequiredInAll<${args}>, ${union(tool.input_schema.required)}>>;`);
    for (const name of tool.server_only_arguments) {
      lines.push(`type ${id(`${name}_server_only`)} = Assert<Equal<NeverIn<${args}, ${JSON.stringify(name)}>, true>>;`);
    }
    for (const name of usable) {
      const type = tsTypeOf(properties[name]);
      const value = `Prop<${args}, ${JSON.stringify(name)}>`;
      const declared = `Exclude<${value}, null | undefined>`;
      if (type?.exact) lines.push(`type ${id(`${name}_type`)} = Assert<Mutual<${declared}, ${type.exact}>>;`);
      if (type?.within)
        lines.push(
          `type ${id(`${name}_type`)} = Assert<Equal<[${declared}] extends [${type.within}] ? true : false, true>>;`,
        );
      lines.push(
        `type ${id(`${name}_nullable`)} = Assert<Equal<null extends ${value} ? true : false, ${nullable(properties[name])}>>;`,
      );
    }
    lines.push(`type ${id('tool')} = Assert<Equal<${result}['tool'], ${JSON.stringify(t)}>>;`);
    lines.push(`type ${id('verdicts')} = Assert<Equal<${result}['verdict'], ${union(tool.verdicts)}>>;`);
    const topLevel = tool.omitted_counts.filter((path) => !path.includes('[]'));
    lines.push(
      `type ${id('omitted')} = Assert<Equal<Extract<keyof ${result}, \`\${string}_omitted\`>, ${union(topLevel)}>>;`,
    );
    for (const path of tool.omitted_counts) {
      const access = path
        .split('[].')
        .map((part) => `[${JSON.stringify(part)}]`)
        .join('[number]');
      lines.push(`type ${id(`${path}_count`)} = Assert<Equal<NonNullable<${result}${access}>, number>>;`);
    }
  }
  const spec = catalog.column_spec;
  lines.push(`type column_spec_keys = Assert<Equal<keyof ColumnSpec, ${union(Object.keys(spec.properties))}>>;`);
  lines.push(`type column_spec_required = Assert<Equal<RequiredInAll<ColumnSpec>, ${union(spec.required)}>>;`);
  lines.push(`type column_types = Assert<Equal<ColumnType, ${union(spec.properties.type.enum)}>>;`);
  lines.push(`type column_spec_type = Assert<Equal<NonNullable<ColumnSpec['type']>, ColumnType>>;`);
  lines.push(`type on_fail = Assert<Equal<OnFail, ${union(spec.properties.on_fail.enum)}>>;`);
  lines.push(`type column_spec_on_fail = Assert<Equal<NonNullable<ColumnSpec['on_fail']>, OnFail>>;`);
  return `${lines.join('\n')}\n`;
}

/** Compile `source` with tsc in strict mode; returns tsc's status and output. */
export function compile(source) {
  const dir = mkdtempSync(join(tmpdir(), 'mcpv-types-'));
  writeFileSync(join(dir, 'check.ts'), source);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        noUnusedLocals: false,
        module: 'esnext',
        moduleResolution: 'bundler',
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: [],
      },
      files: ['check.ts'],
    }),
  );
  const run = spawnSync(tsc, ['-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

test('the TypeScript declarations describe the catalog’s arguments and results', () => {
  const { status, output } = compile(assertionsFor(toolCatalog()));
  assert.equal(status, 0, output);
});

test('the check fails when the declarations and the catalog disagree', () => {
  // The same check against a catalog with one drift each: an argument the
  // declarations lack, a requirement they do not make, a verdict, an
  // omitted count and a column type they do not list, a list name.
  const drifts = [
    (c) => {
      c.tools[0].input_schema.properties.sample = { type: 'integer' };
    },
    (c) => {
      c.tools[2].input_schema.required.push('case_sensitive');
    },
    (c) => {
      c.tools[1].verdicts.push('unknown');
    },
    (c) => {
      c.tools[3].omitted_counts.push('keys_omitted');
    },
    (c) => {
      c.column_spec.properties.type.enum.push('time');
    },
    (c) => {
      c.tools[0].input_schema.properties.row_key = { type: 'string' };
    },
    (c) => {
      c.tools[2].input_schema.properties.lists.items.enum.push('groups');
    },
  ];
  for (const drift of drifts) {
    const catalog = toolCatalog();
    drift(catalog);
    const { status, output } = compile(assertionsFor(catalog));
    assert.notEqual(status, 0, `tsc accepted a drift: ${drift}\n${output}`);
  }
});
