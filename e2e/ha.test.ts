/**
 * `kubespec serve --ha` survives losing a machine: the real kubectl, pointed at the L4 load
 * balancer, keeps working when the machine whose API server and controller manager lead is
 * powered off (serve's control endpoint), and a standby controller manager takes the Lease over
 * — after it expires, as client-go times it — and does the controllers' work from then on; the
 * scheduler, elected the same way, binds a pod created after the kill.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { kubectl, kubectlMissing, startServeProcess, tempDir, type ServeProcess } from './harness.ts';

const missing = kubectlMissing();
if (missing) console.log(`# skipping the HA end-to-end test: ${missing}`);
const skip = missing ? { skip: missing } : {};

let serve: ServeProcess;
const scratch = tempDir('ha');
let caches = 0;

function k(args: string[]) {
  return kubectl(args, { kubeconfig: serve.kubeconfigPath, cacheDir: join(scratch.path, `cache-${++caches}`) });
}

async function until<T>(what: string, budget_ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + budget_ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${budget_ms} ms waiting for ${what}\nserve output:\n${serve.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
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

test('killing the machine that leads leaves kubectl working, and a standby controller manager takes over', skip, async () => {
  const control = /control: (http:\/\/127\.0\.0\.1:\d+)/.exec(serve.output())?.[1];
  assert.ok(control, `serve --ha printed no control endpoint:\n${serve.output()}`);
  const first = await until('a controller-manager leader', 30_000, holder);
  const machine = first.split('_')[0]!;
  const res = await fetch(`${control}/machines/${machine}/kill`, { method: 'POST' });
  assert.equal(res.status, 200, await res.text());

  // The load balancer skips the dead API server: kubectl works at once.
  const created = await k(['create', 'configmap', 'after-kill', '--from-literal=k=v']);
  assert.equal(created.code, 0, created.stderr);
  const read = await k(['get', 'configmap', 'after-kill', '-o', 'jsonpath={.data.k}']);
  assert.equal(read.stdout, 'v', read.stderr);

  // client-go's timing: a standby takes over 15 s to about 24 s after the last renewal.
  const next = await until('a new controller-manager leader', 40_000, async () => {
    const h = await holder();
    return h && h !== first ? h : undefined;
  });
  assert.notEqual(next.split('_')[0], machine, `the lease went to ${next}, on the dead machine`);
  // The new leader runs the controllers: a new namespace gets its default ServiceAccount.
  assert.equal((await k(['create', 'namespace', 'ha-after'])).code, 0);
  await until('ServiceAccount ha-after/default', 20_000, async () => ((await k(['get', 'serviceaccount', 'default', '-n', 'ha-after'])).code === 0 ? true : undefined));
  // The scheduler is elected too: a pod created now is bound by a scheduler on a live machine.
  assert.equal((await k(['run', 'after-kill', '--image=registry.k8s.io/pause:3.9', '--restart=Never'])).code, 0);
  const nodeName = await until('pod after-kill bound', 40_000, async () => {
    const r = await k(['get', 'pod', 'after-kill', '-o', 'jsonpath={.spec.nodeName}']);
    return r.code === 0 && r.stdout.trim() !== '' ? r.stdout.trim() : undefined;
  });
  assert.match(nodeName, /^node-\d+$/);
  const scheduler = await k(['get', 'lease', 'kube-scheduler', '-n', 'kube-system', '-o', 'jsonpath={.spec.holderIdentity}']);
  assert.notEqual(scheduler.stdout.split('_')[0], machine, `the scheduler lease is held on the dead machine: ${scheduler.stdout}`);
});
