import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkTarget, contractCompatible, createPluginTarget, TargetConfigError } from './plugin.ts';
import { CONTRACT_VERSION, type Target } from '../contract/contract.ts';
import { resolveTarget } from '../cli/config.ts';

function scratch(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-plugin-'));
}

const TARGET_BODY = `
  name: 'mystore', capabilities: new Set(['kv']), knownDeviations: new Map(),
  start: async () => {}, stop: async () => {}, openSession: async () => { throw new Error('not here'); },`;

test('contract versions: same major, a minor no newer than the suite', () => {
  assert.equal(contractCompatible('1.0', '1.2'), true);
  assert.equal(contractCompatible('1.2', '1.2'), true);
  assert.equal(contractCompatible('1.3', '1.2'), false, 'a newer minor may use facets this suite lacks');
  assert.equal(contractCompatible('2.0', '1.2'), false);
  assert.equal(contractCompatible('1', '1.2'), false);
  assert.equal(contractCompatible(3, '1.2'), false);
});

test('a target without a contract version, with another major, or with an unknown capability is a configuration error', () => {
  const base = { name: 'x', capabilities: new Set(['kv']), knownDeviations: new Map(), start: async () => {}, stop: async () => {}, openSession: async () => ({}) } as unknown as Target;
  assert.throws(() => checkTarget(base, 'm'), (e: unknown) => e instanceof TargetConfigError && /which contract version/.test(e.message));
  assert.throws(() => checkTarget({ ...base, contractVersion: '9.0' }, 'm'), /implements contract 9.0, but this suite speaks contract/);
  assert.throws(() => checkTarget({ ...base, contractVersion: CONTRACT_VERSION, capabilities: new Set(['kv', 'teleport']) } as unknown as Target, 'm'), /unknown capabilities: teleport/);
  assert.throws(() => checkTarget({ name: 'half' } as unknown as Target, 'm'), /lacks capabilities, knownDeviations, start, openSession, stop/);
  checkTarget({ ...base, contractVersion: CONTRACT_VERSION }, 'm');
});

test('a module exporting createTarget, or a default function, builds a target with its options', async () => {
  const dir = scratch();
  try {
    fs.writeFileSync(path.join(dir, 'named.mjs'), `export function createTarget(o, ctx) { return { ${TARGET_BODY} contractVersion: ctx.contractVersion, options: o }; }`);
    fs.writeFileSync(path.join(dir, 'default.cjs'), `module.exports = (o) => ({ ${TARGET_BODY} contractVersion: '${CONTRACT_VERSION}' });`);
    fs.writeFileSync(path.join(dir, 'none.mjs'), `export const x = 1;`);
    const named = (await createPluginTarget({ module: path.join(dir, 'named.mjs'), options: { a: 1 }, loader: 'tsx' }, 'n')) as Target & { options: unknown };
    assert.deepEqual(named.options, { a: 1 });
    assert.equal((await createPluginTarget({ module: path.join(dir, 'default.cjs'), options: {}, loader: 'tsx' }, 'd')).name, 'mystore');
    await assert.rejects(createPluginTarget({ module: path.join(dir, 'none.mjs'), options: {}, loader: 'tsx' }, 'x'), /exports no target factory/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a target written against contract 1.0 still loads: 1.1 only added optional facets', async () => {
  assert.equal(CONTRACT_VERSION, '1.1');
  const dir = scratch();
  try {
    fs.writeFileSync(path.join(dir, 'old.mjs'), `export function createTarget() { return { ${TARGET_BODY} contractVersion: '1.0' }; }`);
    const old = await createPluginTarget({ module: path.join(dir, 'old.mjs'), options: {}, loader: 'tsx' }, 'old');
    assert.equal(old.contractVersion, '1.0');
    assert.throws(() => checkTarget({ ...old, contractVersion: '1.2' }, 'm'), /implements contract 1.2, but this suite speaks contract 1.1/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a config file names targets with their module, options and loader; unknown names say what exists', async () => {
  const dir = scratch();
  try {
    fs.writeFileSync(path.join(dir, 'store.mjs'), 'export default () => ({})');
    fs.writeFileSync(path.join(dir, 'kubespec.config.json'), JSON.stringify({ targets: { mystore: { module: './store.mjs', options: { endpoint: 'http://x' }, loader: 'ts-node' } } }));
    const resolved = await resolveTarget('mystore', { cwd: dir });
    assert.equal(resolved.env.KUBESPEC_TARGET_MODULE, path.join(dir, 'store.mjs'));
    assert.deepEqual(JSON.parse(resolved.env.KUBESPEC_TARGET_OPTIONS!), { endpoint: 'http://x' });
    assert.equal(resolved.env.KUBESPEC_TARGET_LOADER, 'ts-node');
    assert.equal((await resolveTarget('./store.mjs', { cwd: dir })).env.KUBESPEC_TARGET_LOADER, 'tsx');
    assert.ok((await resolveTarget('etcd', { cwd: dir })).builtin, 'built-in names come first');
    await assert.rejects(resolveTarget('nostore', { cwd: dir }), /unknown target "nostore"[\s\S]*/);
    await assert.rejects(resolveTarget('mystore', { cwd: dir, loader: 'babel' }), /--loader must be tsx or ts-node/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('kubespec.config.ts default-exports the same shape', async () => {
  const dir = scratch();
  try {
    fs.writeFileSync(path.join(dir, 'store.mjs'), 'export default () => ({})');
    fs.writeFileSync(path.join(dir, 'kubespec.config.ts'), "const config: { targets: Record<string, { module: string; options?: object }> } = { targets: { typed: { module: './store.mjs', options: { n: 1 } } } };\nexport default config;\n");
    const resolved = await resolveTarget('typed', { cwd: dir });
    assert.equal(resolved.env.KUBESPEC_TARGET_MODULE, path.join(dir, 'store.mjs'));
    assert.deepEqual(JSON.parse(resolved.env.KUBESPEC_TARGET_OPTIONS!), { n: 1 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
