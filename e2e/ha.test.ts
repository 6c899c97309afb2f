/**
 * `kubespec serve --ha` survives losing a machine: the real kubectl, pointed at the L4 load
 * balancer, keeps working when the machine whose API server and controller manager lead is
 * powered off (serve's control endpoint), and a standby controller manager takes the Lease over
 * — after it expires, as client-go times it — and does the controllers' work from then on; the
 * scheduler, elected the same way, binds a pod created after the kill. A watch held on the
 * killed machine's own API server resumes through the balancer from its last resourceVersion,
 * with nothing lost or repeated. The store is three Raft members, one per machine: with a second
 * machine gone there is no majority, and a write fails after etcd's request timeout.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { kubectl, kubectlMissing, startServeProcess, tempDir, until, type ServeProcess } from './harness.ts';

const missing = kubectlMissing();
if (missing) console.log(`# skipping the HA end-to-end test: ${missing}`);
const skip = missing ? { skip: missing } : {};

let serve: ServeProcess;
const scratch = tempDir('ha');
let caches = 0;

function k(args: string[]) {
  return kubectl(args, { kubeconfig: serve.kubeconfigPath, cacheDir: join(scratch.path, `cache-${++caches}`) });
}

async function holder(): Promise<string | undefined> {
  const r = await k(['get', 'lease', 'kube-controller-manager', '-n', 'kube-system', '-o', 'jsonpath={.spec.holderIdentity}']);
  return r.code === 0 && r.stdout.trim() !== '' ? r.stdout.trim() : undefined;
}

before(async () => {
  if (missing) return;
  serve = await startServeProcess({ args: ['--ha', '--nodes', '2'] });
});

after(async () => {
  if (serve) await serve.stop();
  scratch.remove();
});

function controlUrl(): string {
  const control = /control: (http:\/\/127\.0\.0\.1:\d+)/.exec(serve.output())?.[1];
  assert.ok(control, `serve --ha printed no control endpoint:\n${serve.output()}`);
  return control;
}

async function kill(machine: string): Promise<void> {
  const res = await fetch(`${controlUrl()}/machines/${machine}/kill`, { method: 'POST' });
  assert.equal(res.status, 200, await res.text());
}

/** serve's kubeconfig, pointed at one machine's API server instead of the balancer (port from serve's log). */
function kubeConfigFor(machine?: string): k8s.KubeConfig {
  let text = readFileSync(serve.kubeconfigPath, 'utf8');
  if (machine) {
    const port = new RegExp(`${machine} :(\\d+)`).exec(serve.output())?.[1];
    assert.ok(port, `serve --ha did not print ${machine}'s API server port:\n${serve.output()}`);
    text = text.replace(/server: https:\/\/127\.0\.0\.1:\d+/, `server: https://127.0.0.1:${port}`);
  }
  const kc = new k8s.KubeConfig();
  kc.loadFromString(text);
  return kc;
}

/** A ConfigMap watch: the names it saw, in order, the last resourceVersion, and whether it ended. */
async function watchConfigMaps(kc: k8s.KubeConfig, namespace: string, resourceVersion: string) {
  const seen = { names: [] as string[], resourceVersion, ended: false };
  await new k8s.Watch(kc).watch(`/api/v1/namespaces/${namespace}/configmaps`, { resourceVersion }, (type: string, object: k8s.V1ConfigMap) => {
    if (type === 'ADDED') seen.names.push(object.metadata!.name!);
    seen.resourceVersion = object.metadata!.resourceVersion!;
  }, () => (seen.ended = true));
  return seen;
}

test('killing the machine that leads leaves kubectl working, and a standby controller manager takes over', skip, async () => {
  const first = await until('a controller-manager leader', holder, { budget_ms: 30_000, every_ms: 500, serve });
  const machine = first.split('_')[0]!;
  // A watch held on that machine's own API server, with two events seen before the kill.
  assert.equal((await k(['create', 'namespace', 'watched'])).code, 0);
  const listed = await k(['get', 'configmaps', '-n', 'watched', '-o', 'jsonpath={.metadata.resourceVersion}']);
  const watch = await watchConfigMaps(kubeConfigFor(machine), 'watched', listed.stdout.trim());
  for (const name of ['w1', 'w2']) assert.equal((await k(['create', 'configmap', name, '-n', 'watched'])).code, 0);
  await until('the watch on the leader machine to see w1 and w2', () => watch.names.length >= 2, { budget_ms: 20_000, every_ms: 500, serve });

  await kill(machine);

  // The load balancer skips the dead API server: kubectl works at once.
  const created = await k(['create', 'configmap', 'after-kill', '--from-literal=k=v']);
  assert.equal(created.code, 0, created.stderr);
  const read = await k(['get', 'configmap', 'after-kill', '-o', 'jsonpath={.data.k}']);
  assert.equal(read.stdout, 'v', read.stderr);

  // The watch ended with its API server; resumed through the balancer from the last
  // resourceVersion it saw, it gets what happened since, once: no loss, no duplicate.
  await until('the watch on the killed machine to end', () => watch.ended, { budget_ms: 10_000, every_ms: 500, serve });
  for (const name of ['w3', 'w4']) assert.equal((await k(['create', 'configmap', name, '-n', 'watched'])).code, 0);
  const resumed = await watchConfigMaps(kubeConfigFor(), 'watched', watch.resourceVersion);
  await until('the resumed watch to see w3 and w4', () => resumed.names.length >= 2, { budget_ms: 20_000, every_ms: 500, serve });
  await new Promise((r) => setTimeout(r, 500));
  assert.deepEqual([...watch.names, ...resumed.names], ['w1', 'w2', 'w3', 'w4']);

  // client-go's timing: a standby takes over 15 s to about 24 s after the last renewal.
  const next = await until('a new controller-manager leader', async () => {
    const h = await holder();
    return h && h !== first ? h : undefined;
  }, { budget_ms: 40_000, every_ms: 500, serve });
  assert.notEqual(next.split('_')[0], machine, `the lease went to ${next}, on the dead machine`);
  // The new leader runs the controllers: a new namespace gets its default ServiceAccount.
  assert.equal((await k(['create', 'namespace', 'ha-after'])).code, 0);
  await until('ServiceAccount ha-after/default', async () => (await k(['get', 'serviceaccount', 'default', '-n', 'ha-after'])).code === 0, { budget_ms: 20_000, every_ms: 500, serve });
  // The scheduler is elected too: a pod created now is bound by a scheduler on a live machine.
  assert.equal((await k(['run', 'after-kill', '--image=registry.k8s.io/pause:3.9', '--restart=Never'])).code, 0);
  const nodeName = await until('pod after-kill bound', async () => {
    const r = await k(['get', 'pod', 'after-kill', '-o', 'jsonpath={.spec.nodeName}']);
    return r.code === 0 && r.stdout.trim() !== '' ? r.stdout.trim() : undefined;
  }, { budget_ms: 40_000, every_ms: 500, serve });
  assert.match(nodeName, /^node-\d+$/);
  const scheduler = await k(['get', 'lease', 'kube-scheduler', '-n', 'kube-system', '-o', 'jsonpath={.spec.holderIdentity}']);
  assert.notEqual(scheduler.stdout.split('_')[0], machine, `the scheduler lease is held on the dead machine: ${scheduler.stdout}`);
});

test('the store is three Raft members, one per machine: with two machines down no write commits', skip, async () => {
  const machines = (await (await fetch(`${controlUrl()}/machines`)).json()) as { name: string; alive: boolean; etcdMember?: string; etcdLeader?: boolean }[];
  assert.equal(machines.filter((m) => m.etcdMember !== undefined).length, 3, JSON.stringify(machines));
  assert.equal(machines.filter((m) => m.alive && m.etcdLeader).length, 1, `one live etcd leader: ${JSON.stringify(machines)}`);
  const second = machines.find((m) => m.alive)!;
  await kill(second.name);
  // The last API server still answers, but without a majority nothing commits: etcd's
  // "request timed out" after its request timeout (5 s + two election timeouts) of real time.
  const started = Date.now();
  const write = await k(['create', 'configmap', 'no-quorum', '--from-literal=k=v']);
  const took_ms = Date.now() - started;
  assert.notEqual(write.code, 0, 'a write committed with one member of three');
  assert.match(write.stderr, /request timed out/);
  assert.ok(took_ms >= 5_000, `the write failed after ${took_ms} ms, not after the request timeout`);
});
