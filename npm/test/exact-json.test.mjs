// The conformance runner is only as strict as its comparison; these show the
// comparison catches what JS equality cannot.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstDifference, formatDifference, member, parseExact } from './support/exact-json.mjs';

const diff = (a, b) => firstDifference(parseExact(a), parseExact(b));

test('identical documents have no difference', () => {
  const text = '{"b": [1, 2.5, "x", null, true], "a": {"10": 1, "2": -0.0}}';
  assert.equal(diff(text, text), null);
});

test('whitespace and escapes do not matter', () => {
  assert.equal(diff('{"a":"\\u00e9\\n"}', '{ "a" : "é\\n" }'), null);
});

test('20 and 20.0 differ, which JSON.parse cannot see', () => {
  assert.deepEqual(JSON.parse('20'), JSON.parse('20.0'));
  const found = diff('{"amount": 20.0}', '{"amount": 20}');
  assert.equal(found.path, '$.amount');
  assert.match(formatDifference(found), /expected the float 20\.0, got the integer 20/);
});

test('floats compare by value, whatever their spelling', () => {
  // Python writes 1e+20 and 1e-07 where serde_json writes 1e20 and 1e-7.
  assert.equal(diff('[1e+20, 1e-07, 0.5]', '[1e20, 1e-7, 5e-1]'), null);
  assert.notEqual(diff('[0.1]', '[0.10000000000000002]'), null);
});

test('integers compare exactly beyond 2^53', () => {
  assert.notEqual(diff('9007199254740993', '9007199254740992'), null);
});

test('key order matters, including the integer-like keys JS objects reorder', () => {
  assert.deepEqual(Object.keys(JSON.parse('{"b": 1, "10": 2, "2": 3}')), ['2', '10', 'b']);
  const found = diff('{"b": 1, "10": 2}', '{"10": 2, "b": 1}');
  assert.equal(found.path, '$');
  assert.match(found.why, /key 0 is "10", expected "b"/);
});

test('the path names the first difference, deep inside', () => {
  const found = diff(
    '{"quarantine": [{"row": {"id": "A"}}, {"row": {"my key": [1, 2]}}]}',
    '{"quarantine": [{"row": {"id": "A"}}, {"row": {"my key": [1, 3]}}]}',
  );
  assert.equal(found.path, '$.quarantine[1].row["my key"][1]');
});

test('missing keys, extra items and type changes are differences', () => {
  assert.equal(diff('{"a": 1, "b": 2}', '{"a": 1}').why, 'different keys');
  assert.equal(diff('[1]', '[1, 2]').why, 'different lengths');
  assert.equal(diff('{"a": null}', '{"a": false}').why, 'different types');
  assert.equal(diff('{"a": "1"}', '{"a": 1}').why, 'different types');
});

test('source text is kept for every value', () => {
  const doc = parseExact('{"args": {"x": 20.0, "k": [1 , 2]}}');
  assert.equal(member(doc, 'args').text, '{"x": 20.0, "k": [1 , 2]}');
  assert.equal(member(doc, 'missing'), undefined);
});

test('malformed JSON is refused', () => {
  for (const bad of ['', '{', '[1,]', '{"a" 1}', '01', '1 2', '"\u0001"', "{'a': 1}"]) {
    assert.throws(() => parseExact(bad), SyntaxError, bad);
  }
});
