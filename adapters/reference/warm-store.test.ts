import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReferenceCluster } from '../../reference/wiring/cluster.ts';
import { VirtualClock } from '../../reference/wiring/virtual-clock.ts';
import { parseStored } from '../../reference/apiserver/storage/codec.ts';
import { settledClusterStore } from './warm-store.ts';

const LEASE = '/registry/leases/kube-system/kube-controller-manager';

async function stored(backend: { get(key: string): Promise<{ value: string } | undefined> }, key: string): Promise<any> {
  const kv = await backend.get(key);
  return kv ? parseStored(kv.value) : undefined;
}

test('the settled store holds what the controllers made of the bootstrap objects, and a released Lease', async () => {
  const backend = await settledClusterStore();
  for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    assert.ok(await backend.get(`/registry/serviceaccounts/${ns}/default`), `${ns}/default ServiceAccount`);
  }
  const admin = await stored(backend, '/registry/clusterroles/admin');
  assert.ok(admin.rules.length > 0, 'the aggregated admin ClusterRole has its rules');
  assert.equal((await stored(backend, LEASE)).spec.holderIdentity ?? '', '', 'the template controller manager released its Lease');
});

test('a cluster over the settled store writes only its controller manager\'s Lease on start, and each gets its own copy', async () => {
  const backend = await settledClusterStore();
  const before = backend.currentRevision();
  const cluster = await ReferenceCluster.start({ seed: 7, clock: new VirtualClock(), backend, bootstrapped: true, secure: { tokenCsv: '', anonymous: true }, scheduler: false, inProcessComponents: true });
  try {
    assert.equal(backend.currentRevision(), before + 1, 'one write: the Lease taken at once, not after 15 s');
    assert.notEqual((await stored(backend, LEASE)).spec.holderIdentity, '');
    await backend.put('/registry/configmaps/default/only-here', '{}');
    assert.equal(await (await settledClusterStore()).get('/registry/configmaps/default/only-here'), undefined, 'another session does not see it');
  } finally {
    await cluster.stop();
  }
});
