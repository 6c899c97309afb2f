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
import { kvFacetOver } from './kv.ts';
import { virtualWaiter } from './waiter.ts';

const CAPABILITIES: Capability[] = [
  'kv', 'kv.watch', 'kv.compaction',
  'clock.virtual',
  'kube.api', 'kube.watch', 'kube.compaction', 'kube.storage',
];

export function createReferenceTarget(): Target {
  return {
    name: 'reference',
    capabilities: new Set(CAPABILITIES),
    knownDeviations: new Map(),
    async start() {},
    openSession: (ctx) => openSession(ctx.seed),
    async stop() {},
  };
}

async function openSession(seed: number): Promise<Session> {
  const clock = new VirtualClock();
  const cluster = await ReferenceCluster.start({ seed, clock });
  const client = new KubeHttpClient({ server: cluster.url });
  const kube = await kubeFacet(cluster, client, `ks-${seed.toString(16)}`);
  return {
    seed,
    waiter: virtualWaiter(clock),
    kv: kvFacetOver(cluster.backend),
    clock: { now_ms: () => clock.now_ms(), advance: async (ms) => clock.advance(ms) },
    kube,
    describe: () => ({ url: cluster.url, revision: cluster.backend.currentRevision(), virtual_ms: clock.now_ms() }),
    async close() {
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
