/**
 * GET of one object and of a collection. A list reads a consistent snapshot: the first page at
 * the store's current revision (or the revision the client asked for), later pages at the
 * revision in the continue token. Selectors filter while paging, so `limit` counts matches,
 * as upstream's etcd3 GetList does. Compacted revisions are 410 Expired with etcd3's
 * messages (staging/src/k8s.io/apiserver/pkg/storage/etcd3/errors.go).
 */
import { servedAll } from '../apiextensions/convert.ts';
import { parseFieldSelector, matchesFields, type FieldRequirement } from '../selectors/fields.ts';
import { parseLabelSelector, matchesLabels, type Requirement } from '../selectors/labels.ts';
import { sharedObject } from '../storage/codec.ts';
import { decodeContinue, encodeContinue } from '../storage/continue-token.ts';
import { apiVersionOf } from '../resources/registry.ts';
import { errors, invalid } from '../status.ts';
import type { Env, Reply, ResourceCall } from '../types.ts';
import { reply } from '../types.ts';
import { NO_FAULTS, type Faults } from '../../faults.ts';

export const EXPIRED_LIST = 'The resourceVersion for the provided list is too old.';
export const EXPIRED_CONTINUE = 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.';

export async function get(env: Env, call: ResourceCall): Promise<Reply> {
  const found = await env.store.mustGet(call.def, call.info.namespace, call.info.name);
  return reply(200, found.obj);
}

export interface Filter {
  labels: Requirement[];
  fields: FieldRequirement[];
}

export function parseFilter(call: ResourceCall, faults: Faults = NO_FAULTS): Filter {
  // Fault field-selector-ignored: the selector is parsed (and so still validated) but not applied.
  const parsed = parseFieldSelector(call.query.get('fieldSelector') ?? '', call.def.resource);
  const fields = faults.has('field-selector-ignored') ? [] : parsed;
  if (call.info.name) fields.push({ field: 'metadata.name', equals: true, value: call.info.name });
  const labels = parseLabelSelector(call.query.get('labelSelector') ?? '');
  // Fault selector-negation-ignored (reference/faults.ts): only the positive terms are kept.
  if (faults.has('selector-negation-ignored')) return { labels: labels.filter((r) => !NEGATIONS.has(r.op)), fields };
  return { labels, fields };
}

const NEGATIONS = new Set(['!=', 'notin', '!']);

export function matches(filter: Filter, obj: any): boolean {
  return matchesLabels(filter.labels, obj?.metadata?.labels) && matchesFields(filter.fields, obj);
}

/** A resourceVersion query parameter: '' (none), or a non-negative integer. */
export function parseResourceVersion(raw: string | null): number | undefined {
  if (raw === null || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw errors.badRequest(`invalid resource version ${JSON.stringify(raw)}`);
  return Number(raw);
}

interface ListPlan {
  revision?: number;
  fromKey?: string;
  expired: string;
  limit: number;
}

function listPlan(call: ResourceCall, prefix: string, faults: Faults): ListPlan {
  const q = call.query;
  const rv = parseResourceVersion(q.get('resourceVersion'));
  const match = q.get('resourceVersionMatch') ?? '';
  const limitRaw = q.get('limit') ?? '';
  if (limitRaw !== '' && !/^-?\d{1,15}$/.test(limitRaw)) throw errors.badRequest(`invalid limit ${JSON.stringify(limitRaw)}`);
  const limit = faults.has('list-ignores-limit') ? 0 : Math.max(0, Number(limitRaw || 0));
  if (match !== '' && match !== 'Exact' && match !== 'NotOlderThan') {
    throw invalid('meta.k8s.io', 'ListOptions', '', [{ type: 'NotSupported', field: 'resourceVersionMatch', value: match, detail: 'supported values: "Exact", "NotOlderThan"' }]);
  }
  if (match !== '' && rv === undefined) {
    throw invalid('meta.k8s.io', 'ListOptions', '', [{ type: 'Forbidden', field: 'resourceVersionMatch', detail: 'resourceVersionMatch is forbidden unless resourceVersion is provided' }]);
  }
  const token = q.get('continue');
  if (token && !faults.has('continue-ignored')) {
    if (rv !== undefined && rv !== 0) throw errors.badRequest('specifying resource version is not allowed when using continue');
    const t = decodeContinue(token);
    return { revision: t.rv, fromKey: prefix + t.start, expired: EXPIRED_CONTINUE, limit };
  }
  // Exact, and the legacy form (a limit with a non-zero resourceVersion and no match), read at that revision.
  const exact = rv !== undefined && rv > 0 && (match === 'Exact' || (match === '' && limit > 0)) && !faults.has('list-resourceversion-ignored');
  return exact ? { revision: rv, expired: EXPIRED_LIST, limit } : { expired: EXPIRED_LIST, limit };
}

/** Pages through the prefix at one revision, collecting up to `limit` matching objects. */
async function collect(env: Env, prefix: string, plan: ListPlan, filter: Filter) {
  const items: any[] = [];
  let revision = plan.revision;
  let fromKey = plan.fromKey;
  const chunk = plan.limit > 0 ? Math.max(plan.limit, 50) : undefined;
  for (;;) {
    const page = await env.store.range(prefix, { revision, limit: chunk, fromKey }, plan.expired);
    revision = page.revision;
    for (let i = 0; i < page.kvs.length; i++) {
      const kv = page.kvs[i]!;
      // Shared and frozen: a list only reads and answers them.
      const obj = sharedObject(kv);
      if (matches(filter, obj)) items.push(obj);
      if (plan.limit > 0 && items.length >= plan.limit) {
        const more = i < page.kvs.length - 1 || page.more;
        return { items, revision, next: more ? kv.key + '\u0000' : undefined };
      }
    }
    if (!page.more || page.kvs.length === 0) return { items, revision, next: undefined };
    fromKey = page.kvs[page.kvs.length - 1]!.key + '\u0000';
  }
}

export async function list(env: Env, call: ResourceCall): Promise<Reply> {
  const { def } = call;
  const filter = parseFilter(call, env.faults);
  const prefix = env.store.prefix(def, call.info.namespace);
  const plan = listPlan(call, prefix, env.faults);
  const collected = await collect(env, prefix, plan, filter);
  const { revision, next } = collected;
  const items = call.def.custom ? await servedAll(call.def, collected.items, env.store.conversion) : collected.items;
  const metadata: Record<string, string | number> = { resourceVersion: String(revision) };
  if (next) metadata.continue = encodeContinue({ rv: revision, start: next.slice(prefix.length) });
  if (next && filter.labels.length === 0 && filter.fields.length === 0) metadata.remainingItemCount = await remainingAfter(env, prefix, next, revision, plan.expired);
  return reply(200, { kind: `${def.kind}List`, apiVersion: apiVersionOf(def), metadata, items });
}

/**
 * How many objects a limited list left, counted at the list's revision. Upstream's etcd3 GetList
 * sets remainingItemCount only when the predicate is empty (staging/src/k8s.io/apiserver/pkg/
 * storage/etcd3/store.go: with a selector the count would include objects that do not match).
 */
async function remainingAfter(env: Env, prefix: string, fromKey: string, revision: number, expired: string): Promise<number> {
  const rest = await env.store.range(prefix, { revision, fromKey }, expired);
  return rest.kvs.length;
}
