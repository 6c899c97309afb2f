/**
 * The reference target: a fresh in-process reference cluster per scenario, on a virtual clock.
 * Its API is served on loopback HTTP and reached through the same HTTP client a real cluster
 * is, so the steps exercise the real wire format.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Capability } from '../capabilities.ts';
import type { Session, Target } from '../contract.ts';
import { ReferenceCluster } from '../../reference/wiring/cluster.ts';
import { VirtualClock } from '../../reference/wiring/virtual-clock.ts';
import { adminTokenCsv, openKubeSession } from './kube-session.ts';
import { openStoreSession } from './store-session.ts';
import { faultSchedulesWith } from './fault-schedules.ts';
import { parseFaults, type Faults } from '../../reference/faults.ts';

const CAPABILITIES: Capability[] = [
  'kv', 'kv.watch', 'kv.compaction', 'kv.snapshot',
  'kv.members', 'kv.members.5', 'net.partition', 'raft.observe',
  'clock.virtual',
  'kube.api', 'kube.watch', 'kube.compaction', 'kube.storage',
  'kube.rbac', 'kube.authn', 'kube.admission', 'kube.audit',
  // Anonymous authentication is on unless a scenario requires it off (one cluster per scenario).
  'kube.authn.anonymous', 'kube.authn.anonymous-off',
  // The controllers the reference runs so far (reference/controllers/registry.ts).
  'controllers.serviceaccount',
  'kv.fault-schedules',
  'disk.latency',
  'kube.http2', 'kube.inflight-limit', 'kube.metrics', 'kube.authn.webhook',
  'kube.podsecurity',
];

/**
 * The scenario cluster's --max-mutating-requests-inflight: small, so a scenario can fill it with
 * requests held in a webhook; only identities outside system:masters take seats.
 */
const MAX_MUTATING_IN_FLIGHT = 4;

/** The real kubectl is offered when it is on the PATH (kube-session.ts writes its kubeconfig). */
function kubectlOnPath(): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, 'kubectl')));
}

/** Where the reference knowingly differs from upstream; each entry fails the run if it starts passing. */
const KNOWN_DEVIATIONS = new Map([
  ['ETCD-VALUE-ENCODING', 'the reference API server stores objects as JSON; it has no protobuf serializer'],
]);

export function createReferenceTarget(): Target {
  return {
    name: 'reference',
    capabilities: new Set<Capability>(kubectlOnPath() ? [...CAPABILITIES, 'kubectl'] : CAPABILITIES),
    knownDeviations: KNOWN_DEVIATIONS,
    async start() {},
    openSession: (ctx) => openSession(ctx.seed, ctx.tags),
    async stop() {},
  };
}

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

async function openSession(seed: number, tags: readonly string[]): Promise<Session> {
  const clock = new VirtualClock();
  const faults = faultModels();
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
    const cluster = await ReferenceCluster.start({ seed, clock, secure: { tokenCsv: adminTokenCsv(adminToken), anonymous }, maxMutatingInFlight: MAX_MUTATING_IN_FLIGHT, ...(faults.size > 0 ? { faults } : {}) });
    if (fault !== 'leak-session') started.push(() => cluster.stop());
    if (fault === 'session-setup') throw new Error('reference session setup failed (fault seam KUBESPEC_REFERENCE_FAULT=session-setup)');
    const kubectl = tags.includes('@requires:kubectl');
    const { kube, close: closeKube } = await openKubeSession(cluster, `ks-${seed.toString(16)}`, adminToken, { kubectl });
    started.push(closeKube);
    // The kv side (single or Raft-replicated store, members, raft) is sized from the tags: store-session.ts.
    const store = openStoreSession({ seed, tags, clock, backend: cluster.backend, faults });
    started.push(() => store.close());
    return {
      seed,
      waiter: store.waiter,
      kv: store.kv,
      ...(store.members ? { members: store.members } : {}),
      ...(store.raft ? { raft: store.raft } : {}),
      faultSchedules: faultSchedulesWith(faults),
      clock: store.clock,
      kube: { ...kube, maxMutatingInFlight: MAX_MUTATING_IN_FLIGHT },
      describe: () => ({ url: cluster.url, revision: cluster.backend.currentRevision(), virtual_ms: clock.now_ms(), ...store.describe() }),
      close: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
