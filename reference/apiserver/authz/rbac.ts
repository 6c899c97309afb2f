/**
 * The RBAC authorizer, deny by default.
 *
 * Upstream: plugin/pkg/auth/authorizer/rbac/rbac.go walks the rules that apply to the user
 * (pkg/registry/rbac/validation/rule.go VisitRulesFor): first every ClusterRoleBinding, then —
 * for namespaced requests only — the RoleBindings of the request's namespace; a RoleBinding may
 * reference a Role of its namespace or a ClusterRole, whose rules then apply in that namespace
 * only. The first rule that allows the request decides, and the reason names its source:
 *   RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "y" to User "z"
 *   RBAC: allowed by RoleBinding "x/ns" of Role "y" to ServiceAccount "sa/ns"
 * A denial carries no reason unless a binding referenced a missing role (then `RBAC: <errors>`).
 *
 * The `system:masters` group is allowed everything before RBAC is consulted, as kube-apiserver
 * puts authorizerfactory.NewPrivilegedGroups(user.SystemPrivilegedGroup) first in its union
 * (pkg/kubeapiserver/authorizer/config.go); upstream gives that decision an empty reason.
 */
import type { Faults } from '../../faults.ts';
import { isPromise, type Authorizer, type Decision, type RequestAttributes, type RulesFor, type UserInfo } from '../pipeline.ts';
import { SYSTEM_PRIVILEGED_GROUP } from '../authn/users.ts';
import { aggregateClusterRoles } from './aggregation.ts';
import { ruleAllows } from './rules.ts';
import { DecisionCache, decisionKey, sameNamespaceLists, type DecisionInputs } from './decision-cache.ts';
import type { ClusterRole, PolicyRule, RbacLister, Role, RoleBinding, Subject } from './types.ts';

export interface RbacOptions {
  lister: RbacLister;
  /** Groups allowed everything; default ['system:masters']. */
  privilegedGroups?: string[];
  /**
   * Evaluate aggregated ClusterRoles by their aggregationRule at request time (default true),
   * so that no aggregation controller has to run first. Off: only the stored `.rules` count.
   */
  resolveAggregation?: boolean;
  /** Fault models to inject (reference/faults.ts); default none. */
  faults?: Faults;
}

export interface Resolution {
  rules: PolicyRule[];
  error?: string;
}

export function rbacAuthorizer(opts: RbacOptions): Authorizer {
  const privileged = opts.privilegedGroups ?? [SYSTEM_PRIVILEGED_GROUP];
  const decisions = new DecisionCache();
  return {
    authorize(request: RequestAttributes): Decision | Promise<Decision> {
      if (inAnyGroup(request.user, privileged)) return PRIVILEGED;
      return rememberedDecision(request) ?? walk(request);
    },
    rulesFor: (user, namespace) => rulesFor(opts, privileged, user, namespace),
  };

  /**
   * The decision remembered for the request, when every list it read is served as it was and
   * without waiting (an informer-like cache's lists are); otherwise undefined, and the bindings
   * are walked. It answers exactly as the walk's own reuse of the decision below would.
   */
  function rememberedDecision(request: RequestAttributes): Decision | undefined {
    if (opts.faults && opts.faults.size > 0) return undefined;
    const clusterRoleList = opts.lister.clusterRoles();
    const clusterRoleBindings = opts.lister.clusterRoleBindings();
    if (isPromise(clusterRoleList) || isPromise(clusterRoleBindings)) return undefined;
    const known = decisions.lookup(decisionKey(request), clusterRoleBindings, clusterRoleList);
    if (!known) return undefined;
    if (!known.inputs.namespaced) return known.decision;
    const roleBindings = opts.lister.roleBindings(request.namespace);
    const roles = opts.lister.roles(request.namespace);
    if (isPromise(roleBindings) || isPromise(roles)) return undefined;
    return sameNamespaceLists(known, roleBindings, roles) ? known.decision : undefined;
  }

  /** Walks the bindings (upstream's VisitRulesFor), reusing or remembering the decision. */
  async function walk(request: RequestAttributes): Promise<Decision> {
    // Fault rbac-group-subjects-ignored: bindings are matched as if the user were in no group.
    const attrs = opts.faults?.has('rbac-group-subjects-ignored') ? { ...request, user: { ...request.user, groups: [] } } : request;
    if (opts.faults?.has('rbac-allows-all')) return { allowed: true, reason: 'RBAC: allowed (fault rbac-allows-all)' };
    const clusterRoleList = await opts.lister.clusterRoles();
    const clusterRoleBindings = await opts.lister.clusterRoleBindings();
    const key = decisionKey(attrs);
    const known = decisions.lookup(key, clusterRoleBindings, clusterRoleList);
    // Fault rbac-rolebinding-cluster-wide: the RoleBindings (and Roles) of every namespace count.
    const scope = opts.faults?.has('rbac-rolebinding-cluster-wide') ? '' : attrs.namespace;
    if (known) {
      if (!known.inputs.namespaced) return known.decision;
      // Decided by the namespace's bindings: the cluster's were walked then, and are the same lists.
      if (sameNamespaceLists(known, await opts.lister.roleBindings(scope), await opts.lister.roles(scope))) return known.decision;
    }
    const clusterRoles = await clusterRoleRules(opts, clusterRoleList);
    const errors: string[] = [];
    const inputs: DecisionInputs = { clusterRoleBindings, clusterRoles: clusterRoleList };
    const decide = (decision: Decision): Decision => {
      decisions.remember(key, inputs, decision);
      return decision;
    };
    for (let i = 0; i < clusterRoleBindings.length; i++) {
      const binding = clusterRoleBindings[i]!;
      const allowed = visitBinding(attrs, binding, '', clusterRoles, NO_ROLES, errors);
      if (allowed) return decide({ allowed: true, reason: allowed });
    }
    if (attrs.namespace !== '') {
      const roles = await opts.lister.roles(scope);
      const roleBindings = await opts.lister.roleBindings(scope);
      inputs.namespaced = { roleBindings, roles };
      for (const binding of roleBindings) {
        const allowed = visitBinding(attrs, binding, scope === '' ? (binding.metadata?.namespace ?? attrs.namespace) : attrs.namespace, clusterRoles, roles, errors);
        if (allowed) return decide({ allowed: true, reason: allowed });
      }
    }
    return decide({ allowed: false, reason: errors.length === 0 ? '' : `RBAC: ${aggregate(errors)}` });
  }
}

/** The privileged groups' decision (upstream gives it an empty reason); shared, never changed. */
const PRIVILEGED: Decision = Object.freeze({ allowed: true, reason: '' });

function inAnyGroup(user: UserInfo, groups: readonly string[]): boolean {
  for (let i = 0; i < user.groups.length; i++) if (groups.includes(user.groups[i]!)) return true;
  return false;
}

/**
 * The rules that apply to the user in the namespace, for SelfSubjectRulesReview
 * (RBACAuthorizer.RulesFor, plugin/pkg/auth/authorizer/rbac/rbac.go), from the rule resolver
 * below: a rule with resources is a resource rule, one with nonResourceURLs a non-resource rule.
 * A privileged group gets the `*` rules upstream's privilegedGroupAuthorizer lists.
 */
async function rulesFor(opts: RbacOptions, privileged: string[], user: UserInfo, namespace: string): Promise<RulesFor> {
  if (user.groups.some((g) => privileged.includes(g))) {
    return { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false };
  }
  const { rules, error } = await ruleResolver(opts).rulesFor(user, namespace);
  const out: RulesFor = {
    resourceRules: rules.filter((r) => (r.resources ?? []).length > 0).map((r) => ({ verbs: r.verbs, ...(r.apiGroups ? { apiGroups: r.apiGroups } : {}), resources: r.resources!, ...(r.resourceNames?.length ? { resourceNames: r.resourceNames } : {}) })),
    nonResourceRules: rules.filter((r) => (r.nonResourceURLs ?? []).length > 0).map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs! })),
    incomplete: error !== undefined,
  };
  if (error !== undefined) out.evaluationError = error;
  return out;
}

/**
 * What the escalation checks read (rule.go AuthorizationRuleResolver), over the same listers
 * and the same effective ClusterRole rules as the authorizer, so "the rights a user holds"
 * means exactly what authorization grants her.
 */
export interface RuleResolver {
  /** RulesFor: every rule of the ClusterRoleBindings, and of the namespace's RoleBindings, that apply to the user. */
  rulesFor(user: UserInfo, namespace: string): Promise<{ rules: PolicyRule[]; error?: string }>;
  /** GetRoleReferenceRules: the rules a roleRef names, read in the binding's namespace ('' for a ClusterRoleBinding). */
  roleRefRules(ref: RoleBinding['roleRef'], namespace: string): Promise<Resolution>;
}

export function ruleResolver(opts: RbacOptions): RuleResolver {
  return {
    async rulesFor(user, namespace) {
      const clusterRoles = await clusterRoleRules(opts);
      const rules: PolicyRule[] = [];
      const errors: string[] = [];
      const collect = (binding: RoleBinding, ns: string, roles: Role[]) => {
        if (!(binding.subjects ?? []).some((s) => appliesToUser(user, s, ns))) return;
        const resolved = roleRefRules(binding, clusterRoles, roles);
        if (resolved.error) errors.push(resolved.error);
        rules.push(...resolved.rules);
      };
      for (const binding of await opts.lister.clusterRoleBindings()) collect(binding, '', []);
      if (namespace !== '') {
        const roles = await opts.lister.roles(namespace);
        for (const binding of await opts.lister.roleBindings(namespace)) collect(binding, namespace, roles);
      }
      return errors.length === 0 ? { rules } : { rules, error: aggregate(errors) };
    },
    async roleRefRules(ref, namespace) {
      const roles = ref.kind === 'Role' && namespace !== '' ? await opts.lister.roles(namespace) : [];
      return roleRefRules({ metadata: { name: '' }, roleRef: ref }, await clusterRoleRules(opts), roles);
    },
  };
}

/** The effective rules of every ClusterRole, by name. */
async function clusterRoleRules(opts: RbacOptions, list?: readonly ClusterRole[]): Promise<Map<string, PolicyRule[]>> {
  const all = list ?? (await opts.lister.clusterRoles());
  const known = effectiveRulesByList.get(all);
  if (known && known.resolved === (opts.resolveAggregation !== false)) return known.rules;
  const rules = new Map(all.map((r) => [r.metadata.name, r.rules ?? []]));
  if (opts.resolveAggregation !== false) for (const [name, aggregated] of aggregateClusterRoles(all)) rules.set(name, aggregated);
  // A frozen list cannot change under us: a lister that serves the same frozen list until a
  // write (an informer's cache, reference/wiring/cached-reader.ts) gets the fixed point computed
  // once per change instead of once per request — it was a fifth of the suite's CPU.
  if (Object.isFrozen(all)) effectiveRulesByList.set(all, { resolved: opts.resolveAggregation !== false, rules });
  return rules;
}

const effectiveRulesByList = new WeakMap<readonly ClusterRole[], { resolved: boolean; rules: Map<string, PolicyRule[]> }>();

/** The allow reason if this binding applies to the user and one of its rules allows the request. */
function visitBinding(
  attrs: RequestAttributes,
  binding: RoleBinding,
  bindingNamespace: string,
  clusterRoles: Map<string, PolicyRule[]>,
  roles: Awaited<ReturnType<RbacLister['roles']>>,
  errors: string[],
): string | undefined {
  // Indexed loops, not find/some with closures: this runs for every binding of every request.
  const subjects = binding.subjects ?? NO_SUBJECTS;
  let subject: Subject | undefined;
  for (let i = 0; i < subjects.length && !subject; i++) if (appliesToUser(attrs.user, subjects[i]!, bindingNamespace)) subject = subjects[i];
  if (!subject) return undefined;
  const resolved = roleRefRules(binding, clusterRoles, roles);
  if (resolved.error) {
    errors.push(resolved.error);
    return undefined;
  }
  const rules = resolved.rules;
  for (let i = 0; i < rules.length; i++) if (ruleAllows(attrs, rules[i]!)) return `RBAC: allowed by ${describeBinding(binding, bindingNamespace, subject)}`;
  return undefined;
}

const NO_SUBJECTS: readonly Subject[] = [];
/** A ClusterRoleBinding's Roles: none (it may only reference ClusterRoles). */
const NO_ROLES: Role[] = [];

function roleRefRules(
  binding: RoleBinding,
  clusterRoles: Map<string, PolicyRule[]>,
  roles: Awaited<ReturnType<RbacLister['roles']>>,
): Resolution {
  const ref = binding.roleRef;
  if (ref.kind === 'ClusterRole') {
    const rules = clusterRoles.get(ref.name);
    return rules ? { rules } : { rules: [], error: `clusterrole.rbac.authorization.k8s.io "${ref.name}" not found` };
  }
  if (ref.kind === 'Role') {
    const role = roles.find((r) => r.metadata.name === ref.name);
    return role ? { rules: role.rules ?? [] } : { rules: [], error: `role.rbac.authorization.k8s.io "${ref.name}" not found` };
  }
  return { rules: [], error: `unsupported role reference kind: "${ref.kind}"` };
}

/** rule.go appliesToUser: a ServiceAccount subject without a namespace means the binding's. */
export function appliesToUser(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.name === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const ns = subject.namespace || bindingNamespace;
      return ns !== '' && user.name === `system:serviceaccount:${ns}:${subject.name}`;
    }
    default:
      return false;
  }
}

/** rule.go clusterRoleBindingDescriber / roleBindingDescriber / describeSubject. */
function describeBinding(binding: RoleBinding, bindingNamespace: string, subject: Subject): string {
  const ref = binding.roleRef;
  const subjectText =
    subject.kind === 'ServiceAccount'
      ? `${subject.kind} "${subject.name}/${subject.namespace || bindingNamespace}"`
      : `${subject.kind} "${subject.name}"`;
  if (bindingNamespace === '') {
    return `ClusterRoleBinding "${binding.metadata.name}" of ${ref.kind} "${ref.name}" to ${subjectText}`;
  }
  return `RoleBinding "${binding.metadata.name}/${bindingNamespace}" of ${ref.kind} "${ref.name}" to ${subjectText}`;
}

function aggregate(errors: readonly string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}
