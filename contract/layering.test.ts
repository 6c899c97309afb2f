import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The floors: contract/ imports nothing of the project, reference/ nothing above it (adapters/, steps/, cli/). */
const ROOT = path.resolve(import.meta.dirname, '..');
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mts|js|mjs)$/.test(f))
    .map((f) => path.join(dir, f));
}

function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => path.relative(ROOT, path.resolve(ROOT, path.dirname(file), m[1]!)));
}

test('contract/ imports nothing else in the project (an outside target depends on it alone)', () => {
  const outside = sources('contract').flatMap((f) => importsOf(f).filter((i) => !i.startsWith('contract/')).map((i) => `${f} → ${i}`));
  assert.deepEqual(outside, []);
});

test('reference/ never imports the adapters, the steps or the CLI', () => {
  const upward = sources('reference').flatMap((f) => importsOf(f).filter((i) => /^(adapters|steps|cli)\//.test(i)).map((i) => `${f} → ${i}`));
  assert.deepEqual(upward, []);
});
