import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cucumberLoad, stepFiles } from './cucumber-bundle.ts';

test('coverage, a plug-in target or KUBESPEC_BUNDLE=0 load the support code through tsx', async () => {
  for (const load of [await cucumberLoad({ coverage: true, env: {} }), await cucumberLoad({ env: { KUBESPEC_TARGET_MODULE: '/x/target.ts' } }), await cucumberLoad({ env: { KUBESPEC_BUNDLE: '0' } })]) {
    assert.equal(load.bundled, false);
    assert.deepEqual(load.importArgs, ['--import', 'steps/**/*.ts']);
    assert.match(load.nodeOptions(undefined), /--import tsx/);
  }
});

test('the bundle imports every step file in cucumber\'s order, with source maps, and is reused until a source changes', async () => {
  const load = await cucumberLoad({ env: {} });
  assert.equal(load.bundled, true);
  const bundle = load.importArgs[1]!;
  assert.ok(fs.existsSync(bundle) && fs.existsSync(`${bundle}.map`), 'steps.mjs and its map');
  assert.match(load.nodeOptions('--max-old-space-size=4096'), /^--max-old-space-size=4096 --enable-source-maps$/);
  const files = stepFiles();
  assert.ok(files.some((f) => f.endsWith(path.join('steps', 'support', 'hooks.ts'))));
  assert.deepEqual(files, [...files].sort(), 'sorted as cucumber sorts its expanded paths');
  const map = JSON.parse(fs.readFileSync(`${bundle}.map`, 'utf8')) as { sources: string[] };
  const stepSources = map.sources.filter((s) => /(^|\/)steps\/.*\.ts$/.test(s)).map((s) => path.resolve(path.dirname(bundle), s));
  assert.deepEqual([...new Set(stepSources)].sort(), files.filter((f) => stepSources.includes(f)).sort());
  assert.equal((await cucumberLoad({ env: {} })).importArgs[1], bundle, 'the same key while nothing changed');
});
