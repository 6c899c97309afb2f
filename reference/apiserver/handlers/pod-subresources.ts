/**
 * Pod subresources that are verbs rather than views:
 * - binding (pkg/registry/core/pod/storage BindingREST): sets spec.nodeName once and marks
 *   PodScheduled=True; a pod already bound is 409 `pod x is already assigned to node "n"`.
 * - eviction (pkg/registry/core/pod/storage/eviction.go): a delete that respects
 *   PodDisruptionBudgets; a budget with no disruptions left is 429 "Cannot evict pod as it
 *   would violate the pod's disruption budget." with a DisruptionBudget cause.
 */
import { decodeBody, headerValue } from '../negotiation.ts';
import { findResource, SUBRESOURCE_SCHEMAS } from '../resources/registry.ts';
import { matchesLabels, requirementsOf } from '../selectors/labels.ts';
import { decodeObject } from '../storage/codec.ts';
import { CasFailed } from '../storage/object-store.ts';
import { errors, successStatus } from '../status.ts';
import type { Env, Reply, ResourceCall } from '../types.ts';
import { reply } from '../types.ts';
import { mutatingAdmission, validatingAdmission } from './admit.ts';
import { decodeStage } from './create.ts';
import { decodeTyped, requestOptions } from './decode.ts';
import { deleteObject, type DeleteOptions } from './delete.ts';
import { guaranteedUpdate } from './guaranteed-update.ts';
import { rfc3339 } from './prepare.ts';

const PDBS = findResource('policy', 'v1', 'poddisruptionbudgets')!;

function decodeSub(call: ResourceCall, kind: 'Binding' | 'Eviction', group: string, fv: 'Ignore' | 'Warn' | 'Strict'): any {
  return decodeStage(call, () => decodeTyped(call, decodeBody(headerValue(call.req.headers, 'content-type'), call.req.body), kind, group, 'v1', SUBRESOURCE_SCHEMAS[kind]!, fv));
}

async function admitSubresource(env: Env, call: ResourceCall, kind: { group: string; version: string; kind: string }, object: any): Promise<void> {
  const t = { operation: 'CREATE' as const, kind, subresource: call.info.subresource, namespace: call.info.namespace, name: call.info.name, object, dryRun: false };
  await mutatingAdmission(env, call, call.def, t);
  await validatingAdmission(env, call, call.def, t);
}

export async function bind(env: Env, call: ResourceCall): Promise<Reply> {
  const opts = requestOptions(call, 'CreateOptions');
  const binding = decodeSub(call, 'Binding', '', opts.fieldValidation);
  if (binding.metadata.name && binding.metadata.name !== call.info.name) throw errors.badRequest(`the name of the object (${binding.metadata.name}) does not match the name on the URL (${call.info.name})`);
  const node = binding.target?.name;
  if (!node) throw errors.badRequest('target.name: Required value');
  await admitSubresource(env, call, { group: '', version: 'v1', kind: 'Binding' }, binding);
  await guaranteedUpdate(env, call, {
    name: call.info.name,
    namespace: call.info.namespace,
    subresource: 'binding',
    dryRun: opts.dryRun,
    skipAdmission: true,
    compute: (pod) => {
      if (pod.metadata.deletionTimestamp) throw errors.conflict('', 'pods/binding', call.info.name, `pod ${call.info.name} is being deleted, cannot be assigned to a host`);
      if (pod.spec?.nodeName) throw errors.conflict('', 'pods/binding', call.info.name, `pod ${call.info.name} is already assigned to node ${JSON.stringify(pod.spec.nodeName)}`);
      pod.spec.nodeName = node;
      const annotations = binding.metadata.annotations;
      if (annotations) pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), ...annotations };
      const conditions = (pod.status?.conditions ?? []).filter((c: any) => c?.type !== 'PodScheduled');
      pod.status = { ...(pod.status ?? {}), conditions: [...conditions, { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(env.clock.now_ms()) }] };
      return pod;
    },
  });
  return reply(201, successStatus(undefined, 201));
}

async function consumeDisruption(env: Env, pod: any): Promise<void> {
  const prefix = env.store.prefix(PDBS, pod.metadata.namespace);
  const page = await env.backend.range(prefix);
  // policy/v1: an empty selector selects every pod in the namespace; an absent one none.
  const budgets = page.kvs.map((kv) => ({ kv, pdb: decodeObject(kv) })).filter(({ pdb }) => {
    if (!pdb.spec?.selector) return false;
    const reqs = requirementsOf(pdb.spec.selector);
    return reqs.length === 0 || matchesLabels(reqs, pod.metadata.labels);
  });
  if (budgets.length === 0) return;
  if (budgets.length > 1) throw errors.badRequest('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
  const { kv, pdb } = budgets[0]!;
  const status = pdb.status ?? {};
  // A pod that is not Ready does not count towards the budget: under the default
  // unhealthyPodEvictionPolicy (IfHealthyBudget) it may go while the budget is met, AlwaysAllow
  // lets it go always — without spending a disruption (eviction.go).
  if (!isReady(pod) && (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow' || ((status.desiredHealthy ?? 0) > 0 && (status.currentHealthy ?? 0) >= status.desiredHealthy))) return;
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 1) || (status.disruptionsAllowed ?? 0) <= 0) {
    throw errors.tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", [
      { reason: 'DisruptionBudget', message: `The disruption budget ${pdb.metadata.name} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently` },
    ]);
  }
  const next = { ...pdb, status: { ...status, disruptionsAllowed: status.disruptionsAllowed - 1, disruptedPods: { ...(status.disruptedPods ?? {}), [pod.metadata.name]: rfc3339(env.clock.now_ms()) } } };
  try {
    await env.store.replace(PDBS, next, kv.modRevision);
  } catch (e) {
    if (e instanceof CasFailed) throw errors.conflict('policy', 'poddisruptionbudgets', pdb.metadata.name, 'the object has been modified; please apply your changes to the latest version and try again');
    throw e;
  }
}

function isReady(pod: any): boolean {
  return (pod.status?.conditions ?? []).some((c: any) => c?.type === 'Ready' && c?.status === 'True');
}

/** Pods that are not running cannot hurt availability; upstream skips the budget for them. */
function budgetApplies(pod: any): boolean {
  return pod.status?.phase === 'Running' && !pod.metadata.deletionTimestamp;
}

export async function evict(env: Env, call: ResourceCall): Promise<Reply> {
  const opts = requestOptions(call, 'CreateOptions');
  const eviction = decodeSub(call, 'Eviction', 'policy', opts.fieldValidation);
  if (eviction.metadata.name && eviction.metadata.name !== call.info.name) throw errors.badRequest(`name in URL does not match name in Eviction object`);
  const pod = (await env.store.mustGet(call.def, call.info.namespace, call.info.name)).obj;
  await admitSubresource(env, call, { group: 'policy', version: 'v1', kind: 'Eviction' }, eviction);
  if (budgetApplies(pod)) await consumeDisruption(env, pod);
  const del: DeleteOptions = { dryRun: opts.dryRun, skipAdmission: true };
  const grace = eviction.deleteOptions?.gracePeriodSeconds;
  if (Number.isInteger(grace)) del.gracePeriodSeconds = grace;
  await deleteObject(env, call, call.info.name, call.info.namespace, del);
  return reply(201, successStatus(undefined, 201));
}
