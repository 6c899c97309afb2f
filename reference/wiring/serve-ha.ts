/**
 * What `kubespec serve --ha` and `--cloud` add to serve's cluster, in real time:
 * - --ha: API servers on "machines" m1 (the cluster's own), m2 and m3, with serve's security
 *   and TLS, behind an L4 load balancer (tcp-balancer.ts) that the kubeconfig points at, over
 *   a store replicated by three Raft members, one per machine (kubeadm's stacked topology; the
 *   members are driven in real time by raft-realtime.ts); a kube-controller-manager process per machine under leader election
 *   (ha.ts) and a kube-scheduler process per machine likewise, reaching the API servers through
 *   the balancer; and a control endpoint on loopback
 *   to power a machine off (POST /machines/<name>/kill), as an operator would pull its plug:
 *   its API server, its control-plane processes and its etcd member go together. With one
 *   machine down the other two keep a Raft majority and everything goes on; with two down the
 *   last API server answers, but no write commits (etcd's "request timed out").
 * - --cloud: a simulated cloud behind its msw-served API, a machine for every serve node, and a
 *   cloud-controller-manager (one per machine under --ha) elected through its Lease.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiServer, seededRandom } from '../apiserver/server.ts';
import { listen, type Listening, type TlsOptions } from '../apiserver/host/listen.ts';
import type { ReferenceCluster } from './cluster.ts';
import { CLOUD_CONTROLLER_MANAGER, referenceCloud } from './cloud.ts';
import { HaControlPlane, KUBE_CONTROLLER_MANAGER, KUBE_SCHEDULER } from './ha.ts';
import type { Scheduler } from './virtual-clock.ts';
import { TcpBalancer } from './tcp-balancer.ts';
import type { RaftBackend } from './raft-backend.ts';

export interface ServeHaOptions {
  cluster: ReferenceCluster;
  clock: Scheduler;
  tls?: TlsOptions;
  ha: boolean;
  /** --ha: the cluster's store, a Raft cluster with one member per machine (m1 hosts the first). */
  raft?: RaftBackend;
  /** The CCM's bearer token (its user is in serve's token file); set iff --cloud. */
  ccmToken?: string;
  /** serve's node names: each gets a machine in the cloud. */
  nodes: readonly string[];
  seed: number;
  log: (line: string) => void;
}

export interface ServeHa {
  /** The load balancer's URL under --ha (what the kubeconfig names). */
  readonly url?: string;
  /** The machine control endpoint under --ha. */
  readonly controlUrl?: string;
  stop(): Promise<void>;
}

const MACHINES = ['m1', 'm2', 'm3'];

export async function startServeHa(opts: ServeHaOptions): Promise<ServeHa> {
  const { cluster, clock, log } = opts;
  const apiServers = new Map<string, { http: Listening; alive: boolean }>([['m1', { http: cluster.http, alive: true }]]);
  let balancer: TcpBalancer | undefined;
  if (opts.ha) {
    for (const name of MACHINES.slice(1)) {
      const api = createApiServer({
        backend: cluster.backend,
        clock,
        timers: { after: (ms, fn) => clock.after(ms, fn) },
        random: seededRandom(opts.seed + name.charCodeAt(1)),
        bootstrap: false,
        ...cluster.security?.options,
      });
      await api.ready;
      apiServers.set(name, { http: await listen(api.handler, { port: 0, host: '127.0.0.1', ...(opts.tls ? { tls: opts.tls } : {}) }), alive: true });
    }
    balancer = await TcpBalancer.open(() => [...apiServers.values()].filter((a) => a.alive).map((a) => ({ host: '127.0.0.1', port: a.http.port })));
    log(`HA: API servers on m1..m3 (${[...apiServers].map(([n, a]) => `${n} :${a.http.port}`).join(', ')}) behind an L4 load balancer on :${balancer.port}`);
  }
  const memberOf = (machine: string): string | undefined => opts.raft?.sim.ids[MACHINES.indexOf(machine)];
  const cloud = opts.ccmToken ? referenceCloud('https://cloud.kubespec.test', (line) => log(line)) : undefined;
  for (const node of cloud ? opts.nodes : []) cloud!.model.addInstance(node);
  const plane = new HaControlPlane({
    cluster,
    clock,
    random: seededRandom(opts.seed ^ 0x4a11),
    ...(balancer ? { apiServer: { host: '127.0.0.1', port: balancer.port } } : {}),
    ...(cloud ? { runners: { [CLOUD_CONTROLLER_MANAGER]: cloud.runner({ token: opts.ccmToken!, ...(opts.tls?.ca ? { ca: opts.tls.ca } : {}) }) }, credentials: { [CLOUD_CONTROLLER_MANAGER]: { token: opts.ccmToken!, ...(opts.tls?.ca ? { ca: opts.tls.ca } : {}) } } } : {}),
    log,
  });
  const machines = opts.ha ? MACHINES : ['m1'];
  if (opts.ha) await plane.start(KUBE_CONTROLLER_MANAGER, machines);
  // kube-scheduler too, one per machine under leader election (the cluster's own steps aside).
  if (opts.ha && cluster.scheduler) await plane.start(KUBE_SCHEDULER, machines);
  if (cloud) {
    await plane.start(CLOUD_CONTROLLER_MANAGER, machines);
    log(`cloud: a simulated cloud (API answered by msw handlers) with machines ${opts.nodes.join(', ') || '(none)'}; cloud-controller-manager on ${machines.join(', ')}`);
  }
  const control = opts.ha ? await startControl(async (name) => {
    const api = apiServers.get(name);
    if (!api) return false;
    if (!api.alive) return true;
    api.alive = false;
    await api.http.close();
    for (const p of plane.onMachine(name)) p.kill();
    const member = memberOf(name);
    if (member !== undefined) opts.raft!.sim.kill(member);
    log(`machine ${name} killed: its API server, control-plane processes${member ? ` and etcd member ${member}` : ''} are gone`);
    return true;
  }, () => MACHINES.map((name) => ({
    name,
    alive: apiServers.get(name)?.alive ?? false,
    ...(memberOf(name) !== undefined ? { etcdMember: memberOf(name), etcdLeader: opts.raft!.sim.leader() === memberOf(name) } : {}),
  }))) : undefined;
  if (control) log(`control: ${control.url} (GET /machines; POST /machines/<m1|m2|m3>/kill)`);
  return {
    ...(balancer ? { url: `${opts.tls ? 'https' : 'http'}://127.0.0.1:${balancer.port}` } : {}),
    ...(control ? { controlUrl: control.url } : {}),
    async stop() {
      await plane.close();
      await control?.close();
      await balancer?.close();
      for (const [name, a] of apiServers) if (name !== 'm1' && a.alive) await a.http.close();
    },
  };
}

/** A loopback HTTP endpoint to kill machines: what `ssh m1 poweroff` is to a real cluster. */
async function startControl(kill: (name: string) => Promise<boolean>, list: () => unknown): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const m = /^\/machines\/([^/]+)\/kill$/.exec(req.url ?? '');
    if (req.method === 'GET' && req.url === '/machines') return send(200, list());
    if (req.method === 'POST' && m) {
      void kill(m[1]!).then((ok) => send(ok ? 200 : 404, ok ? { killed: m[1] } : { error: `no machine ${m[1]}` }), (e) => send(500, { error: String(e) }));
      return;
    }
    send(404, { error: 'GET /machines or POST /machines/<name>/kill' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
