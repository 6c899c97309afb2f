/**
 * The shape of a reference controller, in controller-runtime's terms: handlers turn cache events
 * into keys (and only that); a reconcile takes one key and the cache as it is now and returns
 * the writes that move the cluster towards what it should be. Reconciles are level-based — they
 * never see the event that caused them, so a missed or merged event costs nothing — and they
 * never mutate what the cache holds (they clone what they change). The host
 * (reference/wiring/controllers.ts) keeps the caches (informer.ts, fed by list and watch
 * requests to the API server), drains the work queues and sends the actions to the API server.
 *
 * A controller may keep bookkeeping of its own (expectations.ts, the time it first saw a taint),
 * as upstream's do; that is state about its own writes and observations, never a second copy of
 * the cluster.
 */

/** Any Kubernetes object, as decoded from the store. */
export type KubeObject = { apiVersion?: string; kind?: string; metadata: { name: string; namespace?: string; uid?: string; [k: string]: unknown }; [k: string]: unknown };

/** A resource as the API serves it: core group = ''. */
export interface ResourceRef {
  group: string;
  version: string;
  /** Plural, lower case: `serviceaccounts`. */
  resource: string;
}

/** The indexes every cache keeps (client-go's Indexers): values an object is found under. */
export type IndexName = 'namespace' | 'owner' | 'node' | 'uncontrolled';

/** Read-only views of the informer caches the controller asked for. */
export interface Cache {
  get(resource: string, namespace: string, name: string): Readonly<KubeObject> | undefined;
  /** Every cached object of the resource, in one namespace or (namespace undefined) all. */
  list(resource: string, namespace?: string): readonly Readonly<KubeObject>[];
  /**
   * Objects filed under `value` in an index: `owner` by each ownerReference's uid, `node` (pods)
   * by spec.nodeName, `namespace` by namespace, `uncontrolled` by namespace for objects that
   * have no controller ownerReference (the orphans a workload controller may adopt).
   */
  byIndex(resource: string, index: IndexName, value: string): readonly Readonly<KubeObject>[];
}

export interface CacheEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  resource: string;
  /** The object now, or as it was last seen for DELETED. */
  object: Readonly<KubeObject>;
  oldObject?: Readonly<KubeObject>;
}

/** A write a reconcile asks for; the host makes it through the API as the controller's user. */
export type Action =
  /** POST; AlreadyExists is success (someone got there first). */
  | { verb: 'create'; resource: ResourceRef; namespace: string; object: KubeObject; key?: string }
  /** PUT of the whole object (or its status, or a namespace's finalize), carrying the resourceVersion it was read at: a stale one fails with 409 and the key is retried. */
  | { verb: 'update'; resource: ResourceRef; namespace: string; object: KubeObject; subresource?: 'status' | 'finalize' | 'approval';
      /**
       * Make the write only if a SubjectAccessReview says this user may do this (the CSR approver's
       * check of the requester); not allowed: nothing is written, and that is no failure.
       */
      ifAllowed?: { user: string; groups: readonly string[]; uid?: string; resourceAttributes: { group: string; resource: string; subresource?: string; verb: string } } }
  /**
   * Sign a CertificateSigningRequest's PKCS#10 request with the cluster's signing CA over these
   * dates, and write the certificate to the CSR's status (the CSR signer; only the host holds the CA key).
   */
  | { verb: 'sign'; csr: KubeObject; requestPem: string; validity: { notBefore_ms: number; notAfter_ms: number } }
  /**
   * Delete every object of the resource in the namespace: DELETE on the collection, or — for a
   * resource without the deletecollection verb — a DELETE per listed object (as the namespace
   * controller's deleteCollection / listing fallback). NotFound is success.
   */
  | { verb: 'deletecollection'; resource: DiscoveredResource; namespace: string }
  /**
   * A check, not a write: list each resource in the namespace and fail the sync (so the key is
   * retried after back-off) while any object remains — the namespace controller's
   * ResourcesRemainingError.
   */
  | { verb: 'requireEmpty'; namespace: string; resources: readonly ResourceRef[] }
  /** PATCH (JSON merge patch, or strategic merge patch where lists merge by key). */
  | { verb: 'patch'; resource: ResourceRef; namespace: string; name: string; patch: unknown; type?: 'merge' | 'strategic'; subresource?: 'status';
      /** As for delete: skipped if any of these objects exists (a missing `uid`: any object of that name). */
      unlessExists?: ExistenceGuard[] }
  /**
   * DELETE with a uid precondition, so an object of the same name made since is left alone;
   * NotFound is success. `unlessExists`: first GET each of these (by name and uid) and skip the
   * delete if any is there — the garbage collector's live check that an owner missing from its
   * cache is really gone, not just not yet seen (isDangling in garbagecollector.go).
   */
  | { verb: 'delete'; resource: ResourceRef; namespace: string; name: string; uid?: string; propagationPolicy?: 'Background' | 'Foreground' | 'Orphan'; key?: string;
      /** DeleteOptions.gracePeriodSeconds; 0 is a force delete (the pod GC's NewDeleteOptions(0)). */
      gracePeriodSeconds?: number;
      unlessExists?: ExistenceGuard[] };

/** An object whose existence (checked by a live GET) cancels an action; without `uid`, any object of that name counts. */
export interface ExistenceGuard { resource: ResourceRef; namespace: string; name: string; uid?: string }

/** What one reconcile returns: the writes, and optionally when to look at the key again. */
export interface SyncResult {
  actions: Action[];
  /** Re-queue the key after this long (a deadline the controller waits for: a grace period, a TTL). */
  requeueAfter_ms?: number;
}

export interface ReconcileContext {
  /** The controller manager's clock (virtual on the reference, real in `kubespec serve`). */
  now_ms(): number;
  /**
   * The namespaced resources the API server serves (discovery's preferred versions, as
   * ServerPreferredNamespacedResources), read just before this reconcile; only for controllers
   * whose def sets `discovery`.
   */
  discovery?: readonly DiscoveredResource[];
}

/** A resource as discovery lists it: where it is served and which verbs it takes. */
export interface DiscoveredResource extends ResourceRef {
  verbs: readonly string[];
}

export interface ControllerDef {
  /** Its name in kube-controller-manager's --controllers flag. */
  name: string;
  /** Older names the flag also accepts for it. */
  aliases?: readonly string[];
  /** The capability (contract/capabilities.ts) a target running this controller offers. */
  capability?: string;
  /**
   * The resources whose caches it reads; the host lists and watches each through the API
   * server. Cache and event names are their plural `resource`.
   */
  watches: readonly ResourceRef[];
  /** Which keys an event makes dirty (the event handlers). */
  keysFor(event: CacheEvent, cache: Cache): string[];
  reconcile(key: string, cache: Cache, ctx: ReconcileContext): Action[] | SyncResult;
  /** A write it asked for failed: lower what it expected of it (expectations.ts). */
  onActionFailed?(action: Action): void;
  /**
   * Whether a reconcile needs the server's namespaced resources (ReconcileContext.discovery):
   * always, or only for the keys this says (discovery costs a GET per API group).
   */
  discovery?: boolean | ((key: string, cache: Cache) => boolean);
  /** How many workers drain its queue (upstream's --concurrent-*-syncs); 1 by default. */
  workers?: number;
}

/** Resources the controllers share, so every controller names one cache the same way. */
export const RESOURCES = {
  pods: { group: '', version: 'v1', resource: 'pods' },
  nodes: { group: '', version: 'v1', resource: 'nodes' },
  namespaces: { group: '', version: 'v1', resource: 'namespaces' },
  services: { group: '', version: 'v1', resource: 'services' },
  serviceaccounts: { group: '', version: 'v1', resource: 'serviceaccounts' },
  configmaps: { group: '', version: 'v1', resource: 'configmaps' },
  leases: { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' },
  deployments: { group: 'apps', version: 'v1', resource: 'deployments' },
  replicasets: { group: 'apps', version: 'v1', resource: 'replicasets' },
  jobs: { group: 'batch', version: 'v1', resource: 'jobs' },
  endpointslices: { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' },
  endpoints: { group: '', version: 'v1', resource: 'endpoints' },
  clusterroles: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' },
  poddisruptionbudgets: { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' },
} as const satisfies Record<string, ResourceRef>;

export function normalize(result: Action[] | SyncResult): SyncResult {
  return Array.isArray(result) ? { actions: result } : result;
}
