/**
 * The reference target's sessions (./index.ts is the target): each scenario gets a fresh
 * in-process reference cluster on its own virtual clock, or the store alone.
 */
import type { Capability } from '../../contract/capabilities.ts';
import type { HaFacet, Session } from '../../contract/contract.ts';
import { ReferenceCluster } from '../../reference/wiring/cluster.ts';
import { VirtualClock } from '../../reference/wiring/virtual-clock.ts';
import { adminTokenCsv, openKubeSession, workerCa } from './kube-session.ts';
import { openStoreSession } from './store-session.ts';
import { referenceProxyFacet } from './proxy.ts';
import { referenceNodes } from './nodes.ts';
import { faultSchedulesWith } from './fault-schedules.ts';
import { parseFaults, type Faults } from '../../reference/faults.ts';
import { openHaSession } from './ha-session.ts';
import { openCloudSession } from './cloud-session.ts';
import { randomBytes } from 'node:crypto';
import { topologyFromTags, topologyHaFacet } from './topology-session.ts';
import { ControlPlaneTopology } from '../../reference/wiring/topology.ts';
import { RaftBackend } from '../../reference/wiring/raft-backend.ts';
import { LocalBackend } from '../../reference/store/local.ts';
import { MvccStore } from '../../reference/store/mvcc.ts';
import { CCM_USER, CLOUD_CONTROLLER_MANAGER } from '../../reference/wiring/cloud.ts';
import { SCENARIO_NAMESPACE, settledClusterStore } from './warm-store.ts';

/**
 * The scenario cluster's --max-mutating-requests-inflight: small, so a scenario can fill it with
 * requests held in a webhook; only identities outside system:masters take seats.
 */
const MAX_MUTATING_IN_FLIGHT = 4;

/**
 * Fault seams for the run's own tests (cli/watchdog.test.ts): `KUBESPEC_REFERENCE_FAULT` names
 * one — `session-setup` makes every session's setup throw after its cluster started;
 * `leak-session` leaves each session's cluster running after the scenario.
 */
export type ReferenceFault = 'session-setup' | 'leak-session';

function faultFromEnv(): ReferenceFault | undefined {
  const name = process.env.KUBESPEC_REFERENCE_FAULT;
  return name === 'session-setup' || name === 'leak-session' ? name : undefined;
}

/**
 * The fault models this run injects (`kubespec run --fault`, `kubespec selftest`): read once
 * here, at the edge, and passed down through the cores' options (reference/faults.ts).
 */
let runFaults: Faults | undefined;
function faultModels(): Faults {
  runFaults ??= parseFaults(process.env.KUBESPEC_FAULTS);
  return runFaults;
}

/** What a scenario about the store alone may ask for: no API server, controller or node in it. */
const STORE_CAPABILITIES: ReadonlySet<string> = new Set<Capability>([
  'kv', 'kv.watch', 'kv.compaction', 'kv.snapshot', 'kv.members', 'kv.members.5', 'kv.metrics',
  'net.partition', 'raft.observe', 'disk.latency', 'kv.fault-schedules', 'clock.virtual',
]);

export function storeOnly(tags: readonly string[]): boolean {
  const required = tags.filter((t) => t.startsWith('@requires:')).map((t) => t.slice('@requires:'.length));
  return required.length > 0 && required.every((c) => STORE_CAPABILITIES.has(c)) && topologyFromTags(tags) === undefined;
}

/**
 * A scenario about the store alone gets the store alone, as the etcd target gives it: a fresh
 * MVCC store (or a Raft-replicated one, store-session.ts) on its own virtual clock, without the
 * API server, controllers and kube-proxy every other scenario starts — those cost the store
 * scenarios half their time and are never spoken to.
 */
function openStoreOnlySession(seed: number, tags: readonly string[], faults: Faults): Session {
  const clock = new VirtualClock();
  const store = openStoreSession({ seed, tags, clock, backend: new LocalBackend(new MvccStore(faults)), faults });
  return {
    seed,
    waiter: store.waiter,
    kv: store.kv,
    ...(store.members ? { members: store.members } : {}),
    ...(store.kvMetrics ? { kvMetrics: store.kvMetrics } : {}),
    ...(store.raft ? { raft: store.raft } : {}),
    faultSchedules: faultSchedulesWith(faults),
    clock: store.clock,
    describe: () => ({ virtual_ms: clock.now_ms(), ...store.describe() }),
    close: () => store.close(),
  };
}

export async function openReferenceSession(seed: number, tags: readonly string[]): Promise<Session> {
  const faults = faultModels();
  if (storeOnly(tags)) return openStoreOnlySession(seed, tags, faults);
  const clock = new VirtualClock();
  const fault = faultFromEnv();
  // Everything started so far, stopped in reverse order by close() — or at once, if a later
  // part of the setup throws: a leaked listener keeps the cucumber process from ever exiting.
  const started: Array<() => Promise<void>> = [];
  const stopAll = async (): Promise<void> => {
    for (const stop of started.reverse()) await stop().catch(() => undefined);
  };
  try {
    // The full pipeline, as a real cluster runs it: authentication, RBAC, admission with webhooks.
    const adminToken = `kubespec-admin-${seed.toString(16)}`;
    // Anonymous authentication is on (kube-apiserver's default) unless the scenario needs it off.
    const anonymous = !tags.includes('@requires:kube.authn.anonymous-off');
    // The scheduler runs for the scenarios that ask for it; the others spare its lists and watches.
    const scheduler = tags.includes('@requires:cluster.scheduler') || tags.includes('@requires:cluster.workloads');
    // A scenario about the cloud gets a cloud and a cloud-controller-manager, with its own user.
    const withCloud = tags.includes('@requires:cluster.cloud');
    const ccmToken = withCloud ? `kubespec-ccm-${randomBytes(16).toString('base64url')}` : undefined;
    const tokenCsv = adminTokenCsv(adminToken) + (ccmToken ? `${ccmToken},${CCM_USER},${CCM_USER}\n` : '');
    // An HA topology scenario runs several API servers over a replicated store: topology-session.ts.
    const topologyKind = topologyFromTags(tags);
    const replicated = topologyKind ? new RaftBackend({ seed, members: 3, onAdvance: (ms) => clock.advance(ms), ...(faults.size > 0 ? { faults } : {}) }) : undefined;
    // A single store starts as a copy of a settled cluster's (warm-store.ts). Not under a fault
    // model: a fault in the store, API server or controllers must act from the first write on;
    // nor under mutation testing (KUBESPEC_COLD_SESSIONS=1, bin/mutation.mjs), where the template
    // would be built under whichever mutant was active first and then serve every later one.
    const warm = !replicated && faults.size === 0 && fault === undefined && process.env.KUBESPEC_COLD_SESSIONS !== '1' ? await settledClusterStore() : undefined;
    const backend = replicated ?? warm;
    const cluster = await ReferenceCluster.start({
      seed, clock, secure: { tokenCsv, anonymous }, maxMutatingInFlight: MAX_MUTATING_IN_FLIGHT, ...(backend ? { backend } : {}), ...(warm ? { bootstrapped: true } : {}),
      ...(faults.size > 0 ? { faults } : {}),
      // kube-proxy with --iptables-min-sync-period=0 (every change synced at once, an upstream
      // setting), so scenarios on virtual time do not wait out the 1 s batching between syncs.
      proxyMinSyncPeriod_ms: 0,
      scheduler,
      // The cluster's components reach its API server in process (reference/wiring/in-process.ts):
      // the whole pipeline, without loopback HTTP's CPU; the steps still speak HTTP to it.
      inProcessComponents: true,
      // The CSR signer signs with the CA the session's TLS listener trusts for client certificates.
      clusterSigningCa: workerCa,
    });
    if (fault !== 'leak-session') started.push(() => cluster.stop());
    if (fault === 'session-setup') throw new Error('reference session setup failed (fault seam KUBESPEC_REFERENCE_FAULT=session-setup)');
    const topology = topologyKind ? await ControlPlaneTopology.start({ kind: topologyKind, cluster, raft: replicated!, clock, seed }) : undefined;
    if (topology) started.push(() => topology.close());
    const kubectl = tags.includes('@requires:kubectl');
    const { kube, close: closeKube, tls: kubeSessionTls } = await openKubeSession(cluster, SCENARIO_NAMESPACE, adminToken, { kubectl, namespaceExists: warm !== undefined, ...(topology ? { server: topology.url } : {}) });
    started.push(closeKube);
    // The kv side (single or Raft-replicated store, members, raft) is sized from the tags: store-session.ts.
    const store = openStoreSession({ seed, tags, clock, backend: cluster.backend, ...(replicated ? { replicated } : {}), faults });
    started.push(() => store.close());
    const machines = topology ? topologyHaFacet(topology, adminToken) : undefined;
    if (machines) started.push(async () => machines.close());
    const cloud = withCloud ? await openCloudSession(kube, seed) : undefined;
    // Only a scenario about HA or the cloud gets elected processes (and their finer-grained clock).
    const withHa = tags.includes('@requires:cluster.ha');
    // Over a topology, the elected processes reach the API servers through its load balancer.
    const ha = withHa || cloud ? openHaSession(cluster, clock, seed, {
      ...(cloud ? {
        runners: { [CLOUD_CONTROLLER_MANAGER]: cloud.reference.runner({ token: ccmToken! }) },
        credentials: { [CLOUD_CONTROLLER_MANAGER]: { token: ccmToken! } },
      } : {}),
      ...(faults.size > 0 ? { faults } : {}),
      ...(topology ? { apiServer: { host: '127.0.0.1', port: topology.balancer.port } } : {}),
    }, replicated ? (ms) => replicated.advance(ms) : undefined) : undefined;
    if (ha) started.push(() => ha.close());
    // Without HA the cloud scenario still runs its CCM elected, as upstream's --leader-elect default.
    if (cloud && !withHa) await ha!.plane.start(CLOUD_CONTROLLER_MANAGER, ['master']);
    const nodes = referenceNodes(cluster, clock, { ...(topology ? { server: topology.url } : {}), tls: () => kubeSessionTls() });
    started.push(() => nodes.close());
    return {
      seed,
      waiter: ha?.waiter ?? store.waiter,
      kv: store.kv,
      ...(store.members ? { members: store.members } : {}),
      ...(store.kvMetrics ? { kvMetrics: store.kvMetrics } : {}),
      ...(store.raft ? { raft: store.raft } : {}),
      faultSchedules: faultSchedulesWith(faults),
      clock: ha?.clock ?? store.clock,
      kube: { ...kube, maxMutatingInFlight: MAX_MUTATING_IN_FLIGHT },
      ...(ha && withHa && !machines ? { ha: ha.ha } : {}),
      ...(machines ? { ha: machinesWithProcesses(machines.ha, ha) } : {}),
      ...(cloud ? { cloud: cloud.cloud } : {}),
      controllerManager: { stop: () => cluster.stopControllers(), start: (o) => cluster.startControllers(o?.controllers) },
      proxy: referenceProxyFacet(cluster, clock),
      dns: { clusterDomain: 'cluster.local', server: async () => (await cluster.startDns()).address },
      nodes: nodes.facet,
      describe: () => ({ url: cluster.url, revision: cluster.backend.currentRevision(), virtual_ms: clock.now_ms(), ...store.describe() }),
      close: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * An HA topology's machines together with the leader-elected processes started on them (a master
 * runs an API server, an etcd member when stacked, and its control-plane processes): killing a
 * machine kills all of them.
 */
function machinesWithProcesses(machines: HaFacet, ha: ReturnType<typeof openHaSession> | undefined): HaFacet {
  if (!ha) return machines;
  return {
    ...ha.ha,
    machines: machines.machines!,
    requestVia: machines.requestVia!,
    watchVia: machines.watchVia!,
    async killMachine(name) {
      for (const p of ha.plane.onMachine(name)) p.kill();
      await machines.killMachine!(name);
    },
  };
}
