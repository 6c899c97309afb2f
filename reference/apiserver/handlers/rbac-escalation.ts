/**
 * The RBAC registry's escalation checks on writes of roles and bindings, where upstream's
 * policy-based storage runs them: after mutating admission, before the object is validated and
 * stored (pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/policybased/storage.go,
 * Create and Update). Authorization only asked "may she create roles?"; this asks "may she
 * grant what this role holds?":
 * - members of system:masters may (pkg/registry/rbac/escalation_check.go EscalationAllowed);
 * - a Role/ClusterRole write passes if she may `escalate` it (RoleEscalationAuthorized: the
 *   request's group, resource, namespace and name — on create the name is empty), else every
 *   rule in it must be one she holds in the request's namespace (ConfirmNoEscalation); setting a
 *   ClusterRole's aggregationRule needs `*` on everything;
 * - a RoleBinding/ClusterRoleBinding write passes if she may `bind` the referenced role
 *   (BindingAuthorized: verb bind on roles/clusterroles named by roleRef, in the binding's
 *   namespace), else she must hold every rule of that role in the binding's namespace — so a
 *   RoleBinding in X to a ClusterRole needs those rights only in X.
 * An update that only changes ownerReferences or finalizers is never checked (IsOnlyMutatingGCFields),
 * so the garbage collector can always finish its work.
 */
import { SYSTEM_PRIVILEGED_GROUP } from '../authn/users.ts';
import { escalationReason, FULL_AUTHORITY } from '../authz/escalation.ts';
import type { PolicyRule, RoleRef } from '../authz/types.ts';
import type { UserInfo } from '../pipeline.ts';
import type { ResourceDef } from '../resources/registry.ts';
import { errors } from '../status.ts';
import type { Call, Env } from '../types.ts';
import type { AdmissionTarget } from './admit.ts';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
const AGGREGATION_NEEDS_ADMIN = 'must have cluster-admin privileges to use the aggregationRule';

export async function preventEscalation(env: Env, call: Call, def: ResourceDef, t: AdmissionTarget): Promise<void> {
  if (def.group !== RBAC_GROUP || t.subresource !== '' || !env.authorizer || !env.ruleResolver) return;
  if (env.faults.has('rbac-escalation-allowed')) return; // fault model (reference/faults.ts)
  if (call.user.groups.includes(SYSTEM_PRIVILEGED_GROUP)) return;
  if (t.operation === 'UPDATE' && onlyGarbageCollectionFieldsChange(t.object, t.oldObject)) return;
  const name = String(t.object?.metadata?.name ?? t.name);
  if (def.resource === 'roles' || def.resource === 'clusterroles') return checkRole(env, call, def, t, name);
  if (def.resource === 'rolebindings' || def.resource === 'clusterrolebindings') return checkBinding(env, call, def, t, name);
}

async function checkRole(env: Env, call: Call, def: ResourceDef, t: AdmissionTarget, name: string): Promise<void> {
  if (await allowed(env, call.user, 'escalate', def.resource, call.info.namespace, call.info.name)) return;
  const rules: PolicyRule[] = Array.isArray(t.object?.rules) ? t.object.rules : [];
  await confirmNoEscalation(env, call.user, t.namespace, rules, def.resource, name);
  const aggregation = t.object?.aggregationRule;
  const aggregationChanged = t.operation === 'CREATE' || JSON.stringify(aggregation) !== JSON.stringify(t.oldObject?.aggregationRule);
  if (def.resource === 'clusterroles' && aggregation && aggregationChanged) {
    const { rules: held, error } = await env.ruleResolver!.rulesFor(call.user, t.namespace);
    if (escalationReason(call.user, held, FULL_AUTHORITY, error)) throw errors.forbidden(RBAC_GROUP, def.resource, name, AGGREGATION_NEEDS_ADMIN);
  }
}

async function checkBinding(env: Env, call: Call, def: ResourceDef, t: AdmissionTarget, name: string): Promise<void> {
  const ref: RoleRef | undefined = t.object?.roleRef;
  // A binding without a usable roleRef is for validation to refuse (422), not for this check.
  if (!ref || typeof ref.name !== 'string' || (ref.kind !== 'Role' && ref.kind !== 'ClusterRole')) return;
  const resource = ref.kind === 'Role' ? 'roles' : 'clusterroles';
  if (await allowed(env, call.user, 'bind', resource, t.namespace, ref.name, ref.apiGroup ?? RBAC_GROUP)) return;
  const resolved = await env.ruleResolver!.roleRefRules(ref, t.namespace);
  if (resolved.error) throw errors.forbidden(RBAC_GROUP, def.resource, name, resolved.error);
  await confirmNoEscalation(env, call.user, t.namespace, resolved.rules, def.resource, name);
}

async function confirmNoEscalation(env: Env, user: UserInfo, namespace: string, granted: PolicyRule[], resource: string, name: string): Promise<void> {
  const { rules: held, error } = await env.ruleResolver!.rulesFor(user, namespace);
  const reason = escalationReason(user, held, granted, error);
  if (reason) throw errors.forbidden(RBAC_GROUP, resource, name, reason);
}

/** Asks the authorizer for an explicit grant of `escalate` or `bind` (escalation_check.go). */
async function allowed(env: Env, user: UserInfo, verb: string, resource: string, namespace: string, name: string, apiGroup = RBAC_GROUP): Promise<boolean> {
  const decision = await env.authorizer!.authorize({
    user,
    verb,
    resourceRequest: true,
    apiGroup,
    apiVersion: '*',
    resource,
    subresource: '',
    namespace,
    name,
    path: '',
  });
  return decision.allowed;
}

/** rbac/helpers.go IsOnlyMutatingGCFields: equal once ownerReferences and finalizers are taken from the new object. */
function onlyGarbageCollectionFieldsChange(obj: any, old: any): boolean {
  if (!old || !obj) return false;
  const strip = (o: any) => {
    const { ownerReferences: _o, finalizers: _f, resourceVersion: _r, managedFields: _m, ...meta } = o.metadata ?? {};
    return JSON.stringify({ ...o, metadata: meta });
  };
  return strip(obj) === strip(old);
}
