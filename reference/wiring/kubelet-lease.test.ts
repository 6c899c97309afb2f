import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReferenceCluster } from './cluster.ts';
import { passTime, VirtualClock } from './virtual-clock.ts';

const LEASE = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1';

test('a kubelet renews its node Lease with one PUT every 10 s, as the node lease controller does; after someone else writes it, it reads it again first', async () => {
  const clock = new VirtualClock();
  const c = await ReferenceCluster.start({ seed: 5, clock, scheduler: false, inProcessComponents: true });
  try {
    await c.addKubelet('n1');
    await passTime(clock, 5_000);
    const leaseCalls = () => c.api.traces.filter((t) => t.path === LEASE || t.path === LEASE.replace(/\/n1$/, '')).map((t) => `${t.method} ${t.code}`);
    const before = leaseCalls().length;
    await passTime(clock, 60_000);
    const renewals = leaseCalls().slice(before);
    assert.deepEqual([...new Set(renewals)], ['PUT 200'], `renewals: ${renewals.join(', ')}`);
    assert.ok(renewals.length >= 6, `${renewals.length} renewals in 60 s`);
    // Another writer (an admin, or a node's second agent) changes the Lease: its resourceVersion moves on.
    const current = (await c.api.handle({ method: 'GET', url: LEASE, headers: {}, body: Buffer.alloc(0) })) as any;
    const lease = { ...current.answer.body, metadata: { ...current.answer.body.metadata, labels: { touched: 'yes' } } };
    const put = await c.api.handle({ method: 'PUT', url: LEASE, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(lease)) });
    assert.equal(put.status, 200);
    const mark = leaseCalls().length;
    await passTime(clock, 10_000);
    assert.deepEqual(leaseCalls().slice(mark, mark + 3), ['PUT 409', 'GET 200', 'PUT 200']);
  } finally {
    await c.stop();
  }
});
