/**
 * An HA control plane of several API servers over one Raft-replicated store
 * (raft-backend.ts), in the two topologies of kubeadm's HA guide, with an L4 load balancer in
 * front (tcp-balancer.ts):
 * - stacked: machines m1..m3, each running an API server and an etcd member;
 * - external: masters m1..m3 running API servers, and etcd members on machines e1..e3.
 * Every API server serves reads, writes and watches from the same store, so a resourceVersion
 * from one is good on any other. Killing a machine stops everything on it: its API server's
 * listener (open connections included) and, when it hosts one, its etcd member.
 */
import { createApiServer, seededRandom, type ApiServer } from '../apiserver/server.ts';
import { listen, type Listening } from '../apiserver/host/listen.ts';
import type { ReferenceCluster } from './cluster.ts';
import type { RaftBackend } from './raft-backend.ts';
import { TcpBalancer } from './tcp-balancer.ts';
import type { Scheduler } from './virtual-clock.ts';

export type TopologyKind = 'stacked' | 'external';

export interface Machine {
  name: string;
  alive: boolean;
  /** The API server's listener, on a master. */
  apiServer?: { api: ApiServer; http: Listening };
  /** The Raft member id, on a machine that hosts one. */
  member?: string;
}

export class ControlPlaneTopology {
  private constructor(
    readonly kind: TopologyKind,
    readonly machines: Map<string, Machine>,
    readonly balancer: TcpBalancer,
    private readonly raft: RaftBackend,
  ) {}

  /** The cluster's own API server becomes m1's; m2 and m3 get new ones over the same store and security. */
  static async start(opts: { kind: TopologyKind; cluster: ReferenceCluster; raft: RaftBackend; clock: Scheduler; seed: number }): Promise<ControlPlaneTopology> {
    const { cluster, raft, clock } = opts;
    const machines = new Map<string, Machine>();
    const memberIds = raft.sim.ids;
    for (let i = 1; i <= 3; i++) {
      let apiServer: Machine['apiServer'];
      if (i === 1) apiServer = { api: cluster.api, http: cluster.http };
      else {
        const api = createApiServer({
          backend: raft,
          clock,
          timers: { after: (ms, fn) => clock.after(ms, fn) },
          random: seededRandom(opts.seed + i),
          bootstrap: false,
          ...cluster.security?.options,
        });
        await api.ready;
        apiServer = { api, http: await listen(api.handler, { port: 0, host: '127.0.0.1' }) };
      }
      const name = `m${i}`;
      machines.set(name, { name, alive: true, apiServer, ...(opts.kind === 'stacked' ? { member: memberIds[i - 1] } : {}) });
    }
    if (opts.kind === 'external') memberIds.forEach((id, i) => machines.set(`e${i + 1}`, { name: `e${i + 1}`, alive: true, member: id }));
    const balancer = await TcpBalancer.open(() =>
      [...machines.values()].filter((m) => m.alive && m.apiServer).map((m) => ({ host: '127.0.0.1', port: m.apiServer!.http.port })));
    return new ControlPlaneTopology(opts.kind, machines, balancer, raft);
  }

  get url(): string {
    return `http://127.0.0.1:${this.balancer.port}`;
  }

  machine(name: string): Machine {
    const m = this.machines.get(name);
    if (!m) throw new Error(`no machine "${name}" in this ${this.kind} topology (have: ${[...this.machines.keys()].join(', ')})`);
    return m;
  }

  async kill(name: string): Promise<void> {
    const m = this.machine(name);
    if (!m.alive) return;
    m.alive = false;
    if (m.apiServer) await m.apiServer.http.close();
    if (m.member) this.raft.sim.kill(m.member);
    // Let the balancer and the clients see their connections to it close before anyone sends
    // more: a client would otherwise reuse a pooled connection that is already dead.
    for (let turn = 0; turn < 5; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  async close(): Promise<void> {
    await this.balancer.close();
    for (const [name, m] of this.machines) if (name !== 'm1' && m.alive && m.apiServer) await m.apiServer.http.close();
  }
}
