/**
 * The scheduler inside `kubespec serve --nodes 3`, seen with the real kubectl: a pod made by
 * `kubectl run` is bound to one of the nodes (`kubectl get pods -o wide` names it), the
 * scheduler's events show in `kubectl get events`, and `kubectl cordon` keeps new pods off a node
 * until `kubectl uncordon`.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { kubectl, kubectlMissing, startServeProcess, tempDir, type ServeProcess } from './harness.ts';

const missing = kubectlMissing();
const skip = missing ? { skip: missing } : {};

let serve: ServeProcess;
const scratch = tempDir('kubectl-scheduler');
let caches = 0;

function k(args: string[]) {
  return kubectl(args, { kubeconfig: serve.kubeconfigPath, cacheDir: join(scratch.path, `cache-${++caches}`) });
}

/** Polls `kubectl get pod NAME -o wide` until its NODE column satisfies `want`, within 20 s. */
async function podNode(name: string, want: (node: string) => boolean): Promise<string> {
  let last = '';
  for (let waited = 0; waited < 20_000; waited += 250) {
    const r = await k(['get', 'pod', name, '-o', 'wide', '--no-headers']);
    last = r.stdout + r.stderr;
    const node = r.stdout.trim().split(/\s+/)[6] ?? '';
    if (want(node)) return node;
    await sleep(250);
  }
  throw new Error(`pod ${name}: ${last}\n${serve.output().slice(-2000)}`);
}

before(async () => {
  if (missing) return;
  serve = await startServeProcess({ kubeconfigPath: join(scratch.path, 'kubeconfig.kubespec'), args: ['--nodes', '3'] });
});

after(async () => {
  if (serve) assert.equal(await serve.stop(), 0, serve.output());
  scratch.remove();
});

test('kubectl run against serve --nodes 3 gets the pod bound: get pods -o wide shows its node, get events shows Scheduled', skip, async () => {
  const run = await k(['run', 'web', '--image=nginx:1.27']);
  assert.equal(run.code, 0, run.stderr);
  const node = await podNode('web', (n) => /^node-[123]$/.test(n));
  const events = await k(['get', 'events', '--field-selector', 'involvedObject.name=web', '-o', 'jsonpath={range .items[*]}{.reason}:{.message}{"\\n"}{end}']);
  assert.match(events.stdout, new RegExp(`Scheduled:Successfully assigned default/web to ${node}`), events.stdout + events.stderr);
});

test('kubectl cordon keeps new pods off every node until kubectl uncordon, and the pod says why', skip, async () => {
  for (const n of ['node-1', 'node-2', 'node-3']) assert.equal((await k(['cordon', n])).code, 0);
  const spec = await k(['get', 'node', 'node-2', '-o', 'jsonpath={.spec.unschedulable}']);
  assert.equal(spec.stdout, 'true');
  assert.equal((await k(['run', 'late', '--image=nginx:1.27'])).code, 0);
  let message = '';
  for (let waited = 0; waited < 20_000 && !message; waited += 250) {
    message = (await k(['get', 'pod', 'late', '-o', 'jsonpath={.status.conditions[?(@.type=="PodScheduled")].message}'])).stdout;
    if (!message) await sleep(250);
  }
  assert.match(message, /^0\/3 nodes are available: 3 node\(s\) were unschedulable\./);
  assert.equal((await k(['uncordon', 'node-2'])).code, 0);
  assert.equal(await podNode('late', (n) => n !== '<none>' && n !== ''), 'node-2');
});
