/**
 * End to end through the real command: two targets run on one machine — the reference and a
 * plug-in module with no capabilities — then `kubespec matrix` builds the Rule × target table and
 * the combined report, and every report validates against the shipped schema. A plug-in that
 * speaks another contract version is a configuration error (exit 2) before any scenario.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { KUBESPEC_BIN, PROJECT_DIR } from '../e2e/harness.ts';
import { schemaProblems } from './report/schema.ts';
import { CONTRACT_VERSION } from '../contract/contract.ts';

const SCENARIO = '^a service account with no bindings is refused like any other user$';

function kubespec(args: string[], reports: string, cwd = PROJECT_DIR) {
  return spawnSync(process.execPath, [KUBESPEC_BIN, ...args], { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, KUBESPEC_REPORTS_DIR: reports } });
}

function plugin(dir: string, contractVersion: string): string {
  const file = path.join(dir, `empty-${contractVersion}.mjs`);
  fs.writeFileSync(file, `export default () => ({
    name: 'empty', contractVersion: '${contractVersion}', capabilities: new Set(), knownDeviations: new Map(),
    async versions() { return { kubernetes: '1.31.2' }; },
    async start() {}, async stop() {}, async openSession() { throw new Error('no scenario applies'); },
  });\n`);
  return file;
}

test('kubespec matrix: one Rule × target table and a combined report over every saved run, all validating', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-matrix-'));
  const reports = path.join(dir, 'reports');
  try {
    assert.equal(kubespec(['run', '--target', 'reference', '--name', SCENARIO], reports).status, 0);
    const empty = kubespec(['run', '--target', plugin(dir, CONTRACT_VERSION), '--name', SCENARIO], reports);
    assert.equal(empty.status, 0, empty.stdout + empty.stderr);
    const matrix = kubespec(['matrix'], reports);
    assert.equal(matrix.status, 0, matrix.stdout + matrix.stderr);
    assert.match(matrix.stdout, /validates against schemas\/conformance-report.schema.json/);
    const combined = YAML.parse(fs.readFileSync(path.join(reports, 'conformance-report.yaml'), 'utf8'));
    assert.deepEqual(schemaProblems(combined), []);
    assert.deepEqual(combined.targets.map((t: { target: { name: string } }) => t.target.name), ['empty', 'reference']);
    const row = combined.matrix['API-UNIFIED-AUTH'];
    assert.deepEqual(row, { empty: 'not-applicable', reference: 'passed' });
    const plug = combined.targets[0];
    assert.equal(plug.target.contract_version, CONTRACT_VERSION);
    assert.deepEqual(plug.target.versions, { kubernetes: '1.31.2' }, 'the report states what the target said it runs');
    for (const name of ['empty', 'reference']) {
      assert.deepEqual(schemaProblems(YAML.parse(fs.readFileSync(path.join(reports, name, 'conformance-report.yaml'), 'utf8'))), [], name);
    }
    const md = fs.readFileSync(path.join(reports, 'claims-matrix.md'), 'utf8');
    assert.match(md, /\| API-UNIFIED-AUTH \|/);
    assert.match(md, /\| empty \| reference \|/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a plug-in that implements another contract version is refused with exit 2 and a hint, before any scenario', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-contract-'));
  try {
    const run = kubespec(['run', '--target', plugin(dir, '99.0')], path.join(dir, 'reports'));
    assert.equal(run.status, 2, run.stdout + run.stderr);
    assert.match(run.stderr, /implements contract 99.0, but this suite speaks contract/);
    assert.match(run.stderr, /rebuild the target against kubespec\/contract/);
    assert.ok(!fs.existsSync(path.join(dir, 'reports', 'empty', 'messages.ndjson')), 'no scenario ran');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('check-target builds a plug-in, opens and closes one session, and lists what would run and what not', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-check-'));
  try {
    const file = path.join(dir, 'kv-only.mjs');
    fs.writeFileSync(file, `let opened = 0, closed = 0;
export function createTarget() { return {
  name: 'kvonly', contractVersion: '${CONTRACT_VERSION}', capabilities: new Set(['kv', 'kv.members']), knownDeviations: new Map(),
  async start() {}, async stop() { console.log('sessions opened ' + opened + ' closed ' + closed); },
  async openSession(ctx) { opened++; return { seed: ctx.seed, waiter: { until: async () => {} }, kv: {}, describe: () => ({ store: 'none' }), close: async () => { closed++; } }; },
}; }\n`);
    const run = kubespec(['check-target', file], path.join(dir, 'reports'));
    assert.equal(run.status, 1, 'kv.members is declared but the session has no members facet: a problem');
    assert.ok(run.stdout.includes(`contract: target implements ${CONTRACT_VERSION}; suite speaks ${CONTRACT_VERSION}`), run.stdout);
    assert.match(run.stdout, /Rules that would run \(\d+\):[\s\S]*MVCC-/);
    assert.match(run.stdout, /Rules not-applicable \(\d+\), by what the target lacks:[\s\S]*lack kube\.api/);
    assert.match(run.stdout, /problem: declares kv\.members but the session has no facet for it/);
    assert.match(run.stdout, /sessions opened 1 closed 1/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
