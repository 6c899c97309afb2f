/**
 * The reference target: a fresh in-process reference cluster per scenario, on a virtual clock.
 * Its API is served on loopback HTTP and reached through the same HTTP client a real cluster
 * is, so the steps exercise the real wire format.
 */
import type { Capability } from '../capabilities.ts';
import type { KubeFacet, Session, Target } from '../contract.ts';
import { KubeHttpClient } from '../kube/http-client.ts';
import { ReferenceCluster } from '../../reference/wiring/cluster.ts';
import { VirtualClock } from '../../reference/wiring/virtual-clock.ts';
import { openStoreSession } from './store-session.ts';

const CAPABILITIES: Capability[] = [
  'kv', 'kv.watch', 'kv.compaction', 'kv.snapshot',
  'kv.members', 'kv.members.5', 'net.partition', 'raft.observe',
  'clock.virtual',
  'kube.api', 'kube.watch', 'kube.compaction', 'kube.storage',
];

export function createReferenceTarget(): Target {
  return {
    name: 'reference',
    capabilities: new Set(CAPABILITIES),
    knownDeviations: new Map(),
    async start() {},
    openSession: (ctx) => openSession(ctx.seed, ctx.tags),
    async stop() {},
  };
}

async function openSession(seed: number, tags: readonly string[]): Promise<Session> {
  const clock = new VirtualClock();
  const cluster = await ReferenceCluster.start({ seed, clock });
  const client = new KubeHttpClient({ server: cluster.url });
  const kube = await kubeFacet(cluster, client, `ks-${seed.toString(16)}`);
  // The kv side (single or Raft-replicated store, members, raft) is sized from the tags: store-session.ts.
  const store = openStoreSession({ seed, tags, clock, backend: cluster.backend });
  return {
    seed,
    waiter: store.waiter,
    kv: store.kv,
    ...(store.members ? { members: store.members } : {}),
    ...(store.raft ? { raft: store.raft } : {}),
    clock: store.clock,
    kube,
    describe: () => ({ url: cluster.url, revision: cluster.backend.currentRevision(), virtual_ms: clock.now_ms(), ...store.describe() }),
    async close() {
      await store.close();
      client.close();
      await cluster.stop();
    },
  };
}

async function kubeFacet(cluster: ReferenceCluster, client: KubeHttpClient, namespace: string): Promise<KubeFacet> {
  const res = await client.request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } });
  if (res.status !== 201) throw new Error(`could not create the scenario's namespace ${namespace}: ${res.status} ${res.text}`);
  return {
    namespace,
    request: (req) => client.request(req),
    watch: (path, opts) => client.watch(path, opts),
    compact: () => cluster.backend.compact(cluster.backend.currentRevision()),
    storageGet: async (key) => (await cluster.backend.get(key))?.value,
  };
}
