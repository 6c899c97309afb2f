import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ReferenceCluster } from './cluster.ts';
import { VirtualClock } from './virtual-clock.ts';

async function settle(clock: VirtualClock, ms: number, done: () => Promise<boolean>): Promise<void> {
  for (let t = 0; t < ms; t += 10) {
    for (let i = 0; i < 5; i++) {
      if (await done()) return;
      await nextTurn();
    }
    clock.advance(10);
  }
}

test('the scheduler binds a pod through the API as system:kube-scheduler and records Scheduled', async () => {
  const clock = new VirtualClock();
  const cluster = await ReferenceCluster.start({ seed: 1, clock, secure: { tokenCsv: 'admin-token,admin,admin,system:masters\n' } });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${cluster.url}${path}`, { method, headers: { authorization: 'Bearer admin-token', 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: res.status, body: await res.json() as any };
  };
  try {
    await call('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } } });
    await settle(clock, 2000, async () => (await call('GET', '/api/v1/namespaces/default/serviceaccounts/default')).status === 200);
    const created = await call('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await settle(clock, 5000, async () => Boolean((await call('GET', '/api/v1/namespaces/default/pods/web')).body.spec?.nodeName));
    const pod = (await call('GET', '/api/v1/namespaces/default/pods/web')).body;
    assert.equal(pod.spec.nodeName, 'n1');
    assert.equal(pod.spec.priority, 0);
    let events: any[] = [];
    await settle(clock, 2000, async () => (events = (await call('GET', '/api/v1/namespaces/default/events')).body.items ?? []).some((e: any) => e.reason === 'Scheduled'));
    assert.ok(events.some((e) => e.reason === 'Scheduled' && e.message === 'Successfully assigned default/web to n1'), JSON.stringify(events));
  } finally {
    await cluster.stop();
  }
});
