import { test } from 'node:test';
import assert from 'node:assert/strict';
import { binaryAvailable } from '../adapters/etcd/cluster.ts';
import { runStoreBench, QUICK } from './store.ts';
import { stampArrivals } from './store/watch.ts';
import type { KvEvent } from '../contract/contract.ts';

const TINY = { ...QUICK, ops: 20, warmup: 5, watchEvents: 10, simFailoverSeeds: 2, referenceFailovers: 1, etcdFailovers: 1, linearizabilitySeeds: 3 };

test('the store bench measures both systems side by side at tiny sizes, or the reference alone with a note when there is no etcd', async () => {
  const withEtcd = Boolean(process.env.KUBESPEC_ETCD_ENDPOINTS) || (await binaryAvailable('etcd'));
  const result = await runStoreBench({ ...TINY, etcd: withEtcd });
  const named = (system: string, name: string) => result.figures.find((f) => f.system === system && f.name === name);

  for (const name of ['put (sequential)', 'get (sequential)', 'put (16-way concurrent)', 'get (16-way concurrent)']) {
    assert.ok((named('reference', name)?.value ?? 0) > 0, `reference ${name}`);
  }
  assert.ok((named('reference', 'watch delivery (sequential puts)')?.value ?? 0) > 0);
  assert.ok(result.figures.some((f) => f.system === 'reference' && f.unit === 'virtual ms' && f.goal !== undefined), 'a failover figure with its goal');
  assert.ok(result.figures.some((f) => f.name.startsWith('linearizability property, 3 seeds')));
  for (const f of result.figures) {
    assert.ok(Number.isFinite(f.value), `${f.name} is a number`);
    assert.ok(f.system !== undefined || f.unit === '×', `${f.name} says which system it is for`);
  }

  const ratios = result.figures.filter((f) => f.unit === '×');
  if (withEtcd) {
    assert.ok((named('etcd', 'put (sequential)')?.value ?? 0) > 0);
    assert.equal(ratios.length, 5, 'put/get sequential and concurrent, and watch delivery');
    assert.ok(ratios.every((f) => f.goal?.text.includes('10×')));
    assert.ok(result.figures.some((f) => f.system === 'etcd' && f.name.startsWith('failover')));
  } else {
    assert.equal(ratios.length, 0);
    assert.ok(result.notes?.some((n) => n.startsWith('etcd half skipped')));
  }
});

test('watch arrivals are stamped at the moment the facet appends them', () => {
  const events: KvEvent[] = [];
  const arrivals = stampArrivals(events);
  const before = performance.now();
  events.push({ type: 'PUT', kv: { key: 'a', value: '1', createRevision: 2, modRevision: 2, version: 1 } });
  assert.equal(arrivals.receivedAt_ms.length, 1);
  assert.ok((arrivals.receivedAt_ms[0] ?? 0) >= before);
  arrivals.stop();
  assert.equal(Object.prototype.hasOwnProperty.call(events, 'push'), false, 'the array is left as it was');
});
