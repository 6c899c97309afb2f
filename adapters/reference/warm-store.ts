/**
 * The store of a reference cluster that has come up and settled, taken once per worker and
 * restored under each scenario's cluster.
 *
 * Every scenario gets a cluster of its own. Bringing one up from an empty store is most of a
 * session's cost: the API server writes its bootstrap objects (namespaces, the default RBAC
 * policy, priority classes), then the controller manager gives each system namespace its
 * `default` ServiceAccount and fills the aggregated ClusterRoles — some sixty writes, each
 * through the whole pipeline, identical in every scenario. A scenario's cluster instead starts
 * its API server over a copy of that store, as kube-apiserver restarts over an existing etcd, and
 * its controller manager starts as a new process does: it wins the Lease the last one released
 * (client-go's ReleaseOnCancel), lists and watches everything, and finds nothing to do.
 *
 * Only the store is shared; every process in a scenario is its own, seeded from the scenario.
 * The objects in the snapshot were made with the template's own seed, on the same virtual epoch
 * every session's clock starts at.
 */
import { randomBytes } from 'node:crypto';
import { ReferenceCluster } from '../../reference/wiring/cluster.ts';
import { VirtualClock } from '../../reference/wiring/virtual-clock.ts';
import { LocalBackend } from '../../reference/store/local.ts';
import { adminTokenCsv, createNamespace } from './kube-session.ts';
import { KubeHttpClient } from '../kube/http-client.ts';

/**
 * The namespace every reference scenario runs in. Each scenario has a cluster of its own, so one
 * name serves them all, and the template holds it already, with the `default` ServiceAccount its
 * serviceaccounts controller made: a scenario starts as the namespace's second minute, not its
 * first. (The kube target, whose scenarios share a cluster, makes one namespace per scenario.)
 */
export const SCENARIO_NAMESPACE = 'ks-scenario';

/** The template cluster's seed: its objects' uids and names are drawn from it, the same in every run. */
const TEMPLATE_SEED = 0x7e3a1a7e;

let snapshot: Promise<string> | undefined;

/** A fresh store holding a settled cluster (the worker builds the template on first use). */
export async function settledClusterStore(): Promise<LocalBackend> {
  snapshot ??= settledClusterSnapshot();
  return LocalBackend.fromSnapshot(await snapshot);
}

/**
 * Brings up a cluster as a scenario's (no scheduler: it starts after the controllers settle, and
 * only for the scenarios that ask), creates the scenarios' namespace as a session would, lets its
 * controller manager settle, stops it (its Lease is released) and snapshots the store.
 */
async function settledClusterSnapshot(): Promise<string> {
  const backend = new LocalBackend();
  const adminToken = randomBytes(16).toString('base64url');
  const cluster = await ReferenceCluster.start({
    seed: TEMPLATE_SEED,
    backend,
    clock: new VirtualClock(),
    secure: { tokenCsv: adminTokenCsv(adminToken), anonymous: true },
    scheduler: false,
    inProcessComponents: true,
    proxyMinSyncPeriod_ms: 0,
  });
  try {
    const admin = new KubeHttpClient({ server: cluster.url, token: adminToken });
    await createNamespace(admin, cluster, SCENARIO_NAMESPACE).finally(() => admin.close());
    await cluster.stopControllers();
    return backend.snapshot();
  } finally {
    await cluster.stop();
  }
}
