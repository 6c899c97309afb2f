/**
 * An HA topology session (`@topology:stacked` or `@topology:external` with `cluster.ha`): the
 * session's API servers run over a 3-member Raft store (reference/wiring/topology.ts), the
 * `kube` facet goes through the L4 load balancer, and the `ha` facet can kill machines and
 * reach one API server directly. Time is the store's (the simulator drives the session clock).
 */
import type { HaFacet, KubeWatch } from '../../contract/contract.ts';
import { KubeHttpClient } from '../kube/http-client.ts';
import { ControlPlaneTopology, type TopologyKind } from '../../reference/wiring/topology.ts';

const TOPOLOGY_TAG = /^@topology:(stacked|external)$/;

export function topologyFromTags(tags: readonly string[]): TopologyKind | undefined {
  for (const tag of tags) {
    const m = TOPOLOGY_TAG.exec(tag);
    if (m) return m[1] as TopologyKind;
  }
  return undefined;
}

/** The machine-level half of the `ha` facet; the elected-process half is absent here. */
export function topologyHaFacet(topology: ControlPlaneTopology, adminToken: string): { ha: HaFacet; close(): void } {
  const clients = new Map<string, KubeHttpClient>();
  const watches: KubeWatch[] = [];
  const client = (name: string) => {
    const m = topology.machine(name);
    if (!m.apiServer) throw new Error(`machine ${name} runs no API server`);
    let c = clients.get(name);
    if (!c) clients.set(name, (c = new KubeHttpClient({ server: m.apiServer.http.url, token: adminToken })));
    return c;
  };
  const none = async () => {
    throw new Error(`this ${topology.kind} topology session runs no leader-elected processes`);
  };
  const ha: HaFacet = {
    start: none, process: none, kill: none, restart: none, freeze: none, thaw: none, disconnect: none, reconnect: none,
    machines: async () => [...topology.machines.values()].map((m) => ({ name: m.name, alive: m.alive, apiServer: Boolean(m.apiServer), ...(m.member ? { etcdMember: m.member } : {}) })),
    killMachine: (name) => topology.kill(name),
    requestVia: (name, req) => client(name).request(req),
    watchVia: async (name, path) => {
      const w = await client(name).watch(path);
      watches.push(w);
      return w;
    },
  };
  return {
    ha,
    close() {
      for (const w of watches) void w.close();
      for (const c of clients.values()) c.close();
    },
  };
}
