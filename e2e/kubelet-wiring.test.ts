import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeHttpClient } from '../adapters/kube/http-client.ts';
import { virtualWaiter } from '../adapters/reference/waiter.ts';
import { ReferenceCluster } from '../reference/wiring/cluster.ts';
import { VirtualClock } from '../reference/wiring/virtual-clock.ts';

const TOKEN = 'kubelet-test-admin';

async function cluster() {
  const clock = new VirtualClock();
  const c = await ReferenceCluster.start({ seed: 7, clock, secure: { tokenCsv: `${TOKEN},admin,admin,"system:masters"\n` } });
  const client = new KubeHttpClient({ server: c.url, token: TOKEN });
  // The suite's wait on virtual time: event-loop turns for loopback I/O, then 10 ms more.
  const { until } = virtualWaiter(clock);
  return { clock, c, client, until, async stop() { client.close(); await c.stop(); } };
}

const pod = (name: string, node: string, container: any, extra: any = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: { nodeName: node, containers: [{ name: 'app', image: 'busybox', ...container }], ...extra },
});

test('a kubelet registers its node and lease, and runs a pod bound to it to Running through the fake runtime', async () => {
  const t = await cluster();
  try {
    await t.c.addKubelet('n1');
    const node = await t.client.request({ method: 'GET', path: '/api/v1/nodes/n1' });
    assert.equal(node.status, 200);
    assert.equal(node.json.status.conditions.find((c: any) => c.type === 'Ready').status, 'True');
    const lease = await t.client.request({ method: 'GET', path: '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1' });
    assert.equal(lease.json.spec.holderIdentity, 'n1');
    const created = await t.client.request({ method: 'POST', path: '/api/v1/namespaces/default/pods', body: pod('web', 'n1', { command: ['sleep', '3600'] }) });
    assert.equal(created.status, 201, created.text);
    await t.until('Running', async () => (await t.client.request({ method: 'GET', path: '/api/v1/namespaces/default/pods/web' })).json?.status?.phase === 'Running', 10_000);
    const got = (await t.client.request({ method: 'GET', path: '/api/v1/namespaces/default/pods/web' })).json;
    assert.equal(got.status.containerStatuses[0].ready, true);
    assert.match(got.status.podIP, /^127\./);
  } finally {
    await t.stop();
  }
});

test('a crash-looping container backs off 10 s, 20 s, 40 s between restarts and the pod stays Running', async () => {
  const t = await cluster();
  try {
    await t.c.addKubelet('n1');
    await t.client.request({ method: 'POST', path: '/api/v1/namespaces/default/pods', body: pod('crash', 'n1', { command: ['sh', '-c', 'exit 1'] }) });
    const restarts: number[] = [];
    let last = -1;
    await t.until('4 restarts', async () => {
      const s = (await t.client.request({ method: 'GET', path: '/api/v1/namespaces/default/pods/crash' })).json?.status;
      const n = s?.containerStatuses?.[0]?.restartCount ?? -1;
      if (n !== last) {
        last = n;
        restarts.push(t.clock.now_ms());
      }
      return n >= 4;
    }, 200_000);
    const gaps = restarts.slice(2).map((at, i) => Math.round((at - restarts[i + 1]!) / 1000));
    assert.deepEqual(gaps.map((g) => Math.round(g / 10) * 10), [10, 20, 40]);
    const s = (await t.client.request({ method: 'GET', path: '/api/v1/namespaces/default/pods/crash' })).json.status;
    assert.equal(s.phase, 'Running');
  } finally {
    await t.stop();
  }
});
