#!/usr/bin/env node
/**
 * `npm run mutation -- [component ...]`: Stryker over each named component of the reference
 * (default: all in mutation/components.mjs), killed by the feature suite; writes
 * reports/mutation/<component>/ (Stryker's HTML and JSON) and prints each mutation score.
 * Not part of `npm test`: it runs the component's features once per mutant.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { COMPONENTS } from '../mutation/components.mjs';

const asked = process.argv.slice(2);
const names = asked.length > 0 ? asked : Object.keys(COMPONENTS);
for (const n of names) {
  if (!COMPONENTS[n]) {
    console.error(`unknown component "${n}" (have: ${Object.keys(COMPONENTS).join(', ')})`);
    process.exit(2);
  }
}
const stryker = path.join('node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
// KUBESPEC_COLD_SESSIONS=1: every scenario's cluster bootstraps from an empty store, as each
// mutant must act on the whole start-up; the reference target otherwise restores a settled
// cluster's store built once per worker (adapters/reference/warm-store.ts).
let failed = false;
const scores = [];
for (const name of names) {
  console.log(`== mutation: ${name} ==`);
  const run = spawnSync(process.execPath, [stryker, 'run', 'stryker.config.mjs'], { stdio: 'inherit', env: { ...process.env, KUBESPEC_COLD_SESSIONS: '1', KUBESPEC_MUTATION: name, KUBESPEC_TARGET: 'reference', KUBESPEC_SEED: process.env.KUBESPEC_SEED ?? '20261130', NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import tsx`.trim() } });
  if (run.status !== 0) failed = true;
  scores.push([name, scoreOf(path.join('reports', 'mutation', name, 'mutation.json'))]);
}
for (const [name, s] of scores) console.log(`${name.padEnd(28)} ${s ? `${s.score.toFixed(1)} % (${s.killed} killed, ${s.survived} survived, ${s.timeout} timed out, ${s.noCoverage} no coverage, of ${s.total})` : 'no report'}`);
process.exit(failed ? 1 : 0);

/** The mutation score from Stryker's JSON report: (killed + timeout) / (valid mutants). */
function scoreOf(file) {
  if (!fs.existsSync(file)) return undefined;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const count = { Killed: 0, Survived: 0, Timeout: 0, NoCoverage: 0 };
  for (const f of Object.values(report.files)) for (const m of f.mutants) if (m.status in count) count[m.status]++;
  const total = count.Killed + count.Survived + count.Timeout + count.NoCoverage;
  return { score: total === 0 ? 0 : (100 * (count.Killed + count.Timeout)) / total, killed: count.Killed, survived: count.Survived, timeout: count.Timeout, noCoverage: count.NoCoverage, total };
}
