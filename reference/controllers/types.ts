/**
 * The shape of a reference controller, in controller-runtime's terms: handlers turn cache events
 * into keys (and only that); a reconcile takes one key and the cache as it is now and returns
 * the writes that move the cluster towards what it should be. Reconciles are pure and
 * level-based — they never see the event that caused them, so a missed or merged event costs
 * nothing, and they never mutate what the cache holds. The host (reference/wiring/controllers.ts)
 * keeps the caches (informer.ts, fed by list and watch requests to the API server), drains the
 * work queue and sends the actions to the API server.
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

/** Read-only views of the informer caches the controller asked for. */
export interface Cache {
  get(resource: string, namespace: string, name: string): Readonly<KubeObject> | undefined;
  /** Every cached object of the resource, in one namespace or (namespace undefined) all. */
  list(resource: string, namespace?: string): readonly Readonly<KubeObject>[];
}

export interface CacheEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  resource: string;
  /** The object now, or as it was last seen for DELETED. */
  object: Readonly<KubeObject>;
  oldObject?: Readonly<KubeObject>;
}

/** A write a reconcile asks for; the host makes it through the API as the controller's user. */
export type Action = { verb: 'create'; resource: ResourceRef; namespace: string; object: KubeObject };

export interface ControllerDef {
  /** Its name in kube-controller-manager's --controllers flag. */
  name: string;
  /** Older names the flag also accepts for it. */
  aliases?: readonly string[];
  /**
   * The resources whose caches it reads; the host lists and watches each through the API
   * server. Cache and event names are their plural `resource`.
   */
  watches: readonly ResourceRef[];
  /** Which keys an event makes dirty (the event handlers). */
  keysFor(event: CacheEvent): string[];
  reconcile(key: string, cache: Cache): Action[];
}
