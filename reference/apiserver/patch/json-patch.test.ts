import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch, type PatchOperation } from './json-patch.ts';
import { PatchError } from './errors.ts';

const doc = { metadata: { name: 'p', labels: { a: '1' } }, spec: { containers: [{ name: 'c' }] } };

const cases: Array<[string, PatchOperation[], unknown]> = [
  ['add sets a new member', [{ op: 'add', path: '/metadata/labels/b', value: '2' }], { ...doc, metadata: { name: 'p', labels: { a: '1', b: '2' } } }],
  ['add with - appends to an array', [{ op: 'add', path: '/spec/containers/-', value: { name: 'd' } }], { ...doc, spec: { containers: [{ name: 'c' }, { name: 'd' }] } }],
  ['add at an index inserts', [{ op: 'add', path: '/spec/containers/0', value: { name: 'z' } }], { ...doc, spec: { containers: [{ name: 'z' }, { name: 'c' }] } }],
  ['remove deletes a member', [{ op: 'remove', path: '/metadata/labels/a' }], { ...doc, metadata: { name: 'p', labels: {} } }],
  ['replace changes a value', [{ op: 'replace', path: '/metadata/name', value: 'q' }], { ...doc, metadata: { name: 'q', labels: { a: '1' } } }],
  ['move relocates a value', [{ op: 'move', from: '/metadata/labels/a', path: '/metadata/labels/b' }], { ...doc, metadata: { name: 'p', labels: { b: '1' } } }],
  ['copy duplicates a value', [{ op: 'copy', from: '/metadata/name', path: '/metadata/labels/name' }], { ...doc, metadata: { name: 'p', labels: { a: '1', name: 'p' } } }],
  ['test passes on an equal value', [{ op: 'test', path: '/metadata/labels', value: { a: '1' } }], doc],
  ['escaped pointer tokens address keys with / and ~', [{ op: 'add', path: '/metadata/labels/app.kubernetes.io~1name', value: 'x' }], { ...doc, metadata: { name: 'p', labels: { a: '1', 'app.kubernetes.io/name': 'x' } } }],
];

for (const [name, ops, expected] of cases) {
  test(`JSON Patch: ${name}`, () => {
    const before = structuredClone(doc);
    assert.deepEqual(applyJsonPatch(doc, ops), expected);
    assert.deepEqual(doc, before, 'the input is not modified');
  });
}

const failures: Array<[string, PatchOperation[]]> = [
  ['replacing a missing member fails', [{ op: 'replace', path: '/metadata/missing', value: 1 }]],
  ['removing a missing member fails', [{ op: 'remove', path: '/spec/nothing' }]],
  ['adding under a missing parent fails', [{ op: 'add', path: '/a/b', value: 1 }]],
  ['an index past the end fails', [{ op: 'add', path: '/spec/containers/5', value: 1 }]],
  ['a failing test fails the whole patch', [{ op: 'test', path: '/metadata/name', value: 'other' }]],
  ['an unknown op fails', [{ op: 'merge', path: '/x' }]],
];

for (const [name, ops] of failures) {
  test(`JSON Patch: ${name}`, () => assert.throws(() => applyJsonPatch(doc, ops), PatchError));
}
