import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cloneJson, jsonEqual } from './json-value.ts';
import { seededRandom } from './apiserver/server.ts';

/** The definitions json-value.ts stands in for. */
const roundTrip = (v: unknown): unknown => (v === undefined ? v : JSON.parse(JSON.stringify(v)));
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = canonical((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}
const textEqual = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** Seeded (the cores' own mulberry32), so a failure names the value that broke it. */
const random = seededRandom;

const ODD: unknown[] = [NaN, Infinity, -Infinity, -0, new Date(0), new Uint8Array([1, 2]), new Map([[1, 2]]), undefined, '\ud800', 'é', 0, 1.5, -3, true, false, null, ''];
const KEYS = ['a', 'b', 'metadata', 'spec', '1', '10', '2', 'status', 'x y', ''];

function value(r: () => number, depth: number, odd: boolean): unknown {
  const pick = r();
  if (depth <= 0 || pick < 0.35) {
    if (odd && r() < 0.15) return ODD[Math.floor(r() * ODD.length)];
    const prims = [() => Math.floor(r() * 100), () => r().toString(36), () => r() < 0.5, () => null];
    return prims[Math.floor(r() * prims.length)]!();
  }
  if (pick < 0.6) {
    const arr: unknown[] = [];
    const n = Math.floor(r() * 4);
    for (let i = 0; i < n; i++) arr.push(value(r, depth - 1, odd));
    if (odd && r() < 0.05) arr.length += 1; // a hole
    return arr;
  }
  const obj: Record<string, unknown> = odd && r() < 0.05 ? Object.create(null) : {};
  const n = Math.floor(r() * 5);
  for (let i = 0; i < n; i++) obj[KEYS[Math.floor(r() * KEYS.length)]!] = value(r, depth - 1, odd);
  if (odd && r() < 0.05) Object.defineProperty(obj, '__proto__', { value: 1, enumerable: true, writable: true, configurable: true });
  return r() < 0.1 ? Object.freeze(obj) : obj;
}

/** A variant of v: the same, the same with keys in another order, or one thing changed. */
function variant(r: () => number, v: unknown, odd: boolean): unknown {
  if (Array.isArray(v)) return r() < 0.2 && v.length > 0 ? v.slice(1) : v.map((x) => (r() < 0.3 ? variant(r, x, odd) : x));
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const keys = Object.keys(v);
    if (r() < 0.5) keys.reverse();
    const out: Record<string, unknown> = {};
    for (const k of keys) out[k] = r() < 0.3 ? variant(r, (v as Record<string, unknown>)[k], odd) : (v as Record<string, unknown>)[k];
    if (r() < 0.1) out.extra = r() < 0.5 ? undefined : 1;
    return out;
  }
  return r() < 0.7 ? v : value(r, 1, odd);
}

const outcome = (f: () => unknown): { value?: string; error?: string } => {
  try {
    return { value: JSON.stringify(f()) };
  } catch (e) {
    return { error: (e as Error).constructor.name };
  }
};

test('cloneJson gives what the JSON round trip gives: the same text, key order and prototypes, on 20,000 values with odd members', () => {
  for (let seed = 1; seed <= 20_000; seed++) {
    const r = random(seed);
    const v = value(r, 5, seed % 2 === 0);
    const expected = outcome(() => roundTrip(v));
    assert.deepEqual(outcome(() => cloneJson(v)), expected, `seed ${seed}`);
    if (expected.error === undefined) assert.deepStrictEqual(cloneJson(v), roundTrip(v), `seed ${seed}`);
  }
});

test('a copy shares nothing with the original', () => {
  const original = { metadata: { labels: { a: '1' } }, spec: { containers: [{ name: 'c' }] } };
  const copy = cloneJson(original);
  copy.metadata.labels.a = '2';
  copy.spec.containers[0]!.name = 'd';
  assert.deepEqual(original, { metadata: { labels: { a: '1' } }, spec: { containers: [{ name: 'c' }] } });
});

test('jsonEqual answers as comparing the key-sorted JSON texts, on 20,000 pairs', () => {
  let equal = 0;
  for (let seed = 1; seed <= 20_000; seed++) {
    const r = random(seed);
    const odd = seed % 2 === 0;
    const a = value(r, 4, odd);
    const b = r() < 0.1 ? a : variant(r, a, odd);
    const expected = outcome(() => textEqual(a, b));
    assert.deepEqual(outcome(() => jsonEqual(a, b)), expected, `seed ${seed}`);
    if (expected.value === 'true') equal++;
  }
  assert.ok(equal > 2000 && equal < 18_000, `both answers are exercised (${equal} equal)`);
});

test('jsonEqual: key order and undefined members do not matter; array order, types and values do', () => {
  assert.equal(jsonEqual({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }), true);
  assert.equal(jsonEqual({ a: 1, gone: undefined }, { a: 1 }), true);
  assert.equal(jsonEqual([1, 2], [2, 1]), false);
  assert.equal(jsonEqual({ a: '1' }, { a: 1 }), false);
  assert.equal(jsonEqual({ a: {} }, { a: [] }), false);
  assert.equal(jsonEqual({ a: null }, { a: undefined }), false);
  assert.equal(jsonEqual({ a: { b: 1 } }, { a: { b: 1, c: 2 } }), false);
});
