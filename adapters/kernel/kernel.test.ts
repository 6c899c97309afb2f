/**
 * The kernel target's network (root only; elsewhere skipped with the reason): a node with a
 * backend and clients is made, a real connection crosses it, and nothing is left behind —
 * after close(), and after a process that made one is killed with SIGINT or SIGKILL.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { KernelNetwork, kernelUnavailable, processAddress, sweepStale } from './host/network.ts';

const why = kernelUnavailable();
const skip = why ? `kernel target tests skipped: ${why}` : false;

const namespacesOf = (prefix: string) => (spawnSync('ip', ['netns', 'list']).stdout?.toString() ?? '').split('\n').filter((l) => l.startsWith(prefix));

test('a node process binds an address beside the node address, so a masquerade to the node address shows', () => {
  assert.equal(processAddress('172.18.0.2'), '172.18.0.102');
});

test('a pod reaches a backend on its node by the backend\'s address, and close() removes every namespace', { skip }, async () => {
  const net = new KernelNetwork();
  try {
    net.up();
    net.node('n1', '172.18.0.2');
    await net.backend('n1', '10.244.1.10', [8080]);
    const pod = net.podClient('n1', '10.244.250.51');
    const [answer] = await net.send(pod, { dst: '10.244.1.10', port: 8080, requests: 1, keepAlive: false, timeout_ms: 2000 });
    assert.deepEqual(answer, { backend: '10.244.1.10:8080', peer: '10.244.250.51' });
    const [refused] = await net.send(pod, { dst: '10.244.1.10', port: 9999, requests: 1, keepAlive: false, timeout_ms: 2000 });
    assert.equal(refused!.error, 'ECONNREFUSED');
    assert.ok(namespacesOf(net.prefix).length >= 5);
  } finally {
    net.close();
  }
  assert.deepEqual(namespacesOf(net.prefix), []);
});

/** A child process that makes a network and prints its prefix, then waits to be killed. */
function childWithNetwork(): Promise<{ prefix: string; child: ReturnType<typeof spawn> }> {
  const script = `import('${new URL('./host/network.ts', import.meta.url).href}').then(async ({ KernelNetwork }) => {
    const net = new KernelNetwork(); net.up(); net.node('n1', '172.18.0.2'); await net.backend('n1', '10.244.1.10', [8080]);
    console.log(net.prefix); setInterval(() => {}, 1000);
  });`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d) => resolve({ prefix: d.toString().trim(), child }));
    child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
  });
}

test('Ctrl-C (SIGINT) on a process with a network removes its namespaces on the way out', { skip }, async () => {
  const { prefix, child } = await childWithNetwork();
  assert.ok(namespacesOf(prefix).length > 0);
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGINT');
  await exited;
  assert.deepEqual(namespacesOf(prefix), []);
});

test('namespaces of a process killed with SIGKILL are swept by the next run', { skip }, async () => {
  const { prefix, child } = await childWithNetwork();
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGKILL');
  await exited;
  assert.ok(namespacesOf(prefix).length > 0, 'SIGKILL leaves them');
  // Its helper processes see their stdin close and exit; the namespaces go with the sweep.
  await delay(200);
  sweepStale();
  assert.deepEqual(namespacesOf(prefix), []);
});
