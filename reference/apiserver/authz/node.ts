/**
 * The Node authorizer, which kube-apiserver runs before RBAC (`--authorization-mode=Node,RBAC`):
 * it speaks only for kubelets — users named `system:node:<name>` in the group `system:nodes`
 * (plugin/pkg/auth/authorizer/node/node_authorizer.go, NodeIdentifier in
 * pkg/auth/nodeidentifier/default.go) — and says nothing for anyone else, so RBAC decides.
 *
 * For a kubelet:
 * - leases (coordination.k8s.io) only get, create, update, patch, delete, only in
 *   kube-node-lease, and (except create, whose name the authorizer cannot see) only the lease
 *   named after the node — node_authorizer.go authorizeLease, with its messages;
 * - everything else by the rules of the `system:node` role (bootstrappolicy policy.go
 *   NodeRules): read pods, nodes, services; write its Node, nodes/status, pods/status, events;
 *   delete pods. Which objects it may write is NodeRestriction's job (admission/noderestriction),
 *   as upstream splits it: the authorizer cannot see an object's spec.nodeName.
 * Secrets, ConfigMaps and volumes reachable from the node's pods (the node graph) are not
 * modelled: the reference's kubelets mount none, so the authorizer gives them no opinion.
 *
 * A "no opinion" is `allowed: false`; `unionAuthorizer` then asks the next authorizer.
 */
import { isPromise, type Authorizer, type Decision, type RequestAttributes, type RulesFor, type UserInfo } from '../pipeline.ts';
import { ruleAllows } from './rules.ts';
import type { PolicyRule } from './types.ts';

export const NODES_GROUP = 'system:nodes';
export const NODE_USER_PREFIX = 'system:node:';
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** The node a user is, if it is one (nodeidentifier: the prefix and the group must both be there). */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.name.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return undefined;
  return user.name.slice(NODE_USER_PREFIX.length);
}

const rule = (verbs: string[], resources: string[], apiGroups = ['']): PolicyRule => ({ verbs, apiGroups, resources });

/** bootstrappolicy NodeRules(), the part a kubelet without volumes uses. */
export const NODE_RULES: PolicyRule[] = [
  rule(['create', 'get', 'list', 'watch'], ['nodes']),
  rule(['update', 'patch'], ['nodes/status']),
  rule(['update', 'patch'], ['nodes']),
  rule(['create', 'update', 'patch'], ['events']),
  rule(['create', 'update', 'patch'], ['events'], ['events.k8s.io']),
  rule(['get', 'list', 'watch'], ['pods']),
  rule(['create', 'delete'], ['pods']),
  rule(['update', 'patch'], ['pods/status']),
  rule(['create'], ['pods/eviction']),
  rule(['get', 'list', 'watch'], ['services', 'endpoints']),
  // For the kubelet's client certificate rotation (NodeRules: "Needed for kubelet to request client certs").
  rule(['create', 'get', 'list', 'watch'], ['certificatesigningrequests'], ['certificates.k8s.io']),
];

const LEASE_VERBS = ['get', 'create', 'update', 'patch', 'delete'];

export function nodeAuthorizer(): Authorizer {
  return {
    authorize(attrs: RequestAttributes): Decision {
      const node = nodeIdentity(attrs.user);
      if (node === undefined) return { allowed: false, reason: '' };
      if (node === '') return { allowed: false, reason: `unknown node for user "${attrs.user.name}"` };
      if (attrs.resourceRequest && attrs.apiGroup === 'coordination.k8s.io' && attrs.resource === 'leases') return authorizeLease(node, attrs);
      if (NODE_RULES.some((r) => ruleAllows(attrs, r))) return { allowed: true, reason: '' };
      return { allowed: false, reason: '' };
    },
  };
}

function authorizeLease(node: string, attrs: RequestAttributes): Decision {
  if (!LEASE_VERBS.includes(attrs.verb) || attrs.subresource !== '') return { allowed: false, reason: 'can only get, create, update, patch, or delete a node lease' };
  if (attrs.namespace !== NODE_LEASE_NAMESPACE) return { allowed: false, reason: `can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace` };
  if (attrs.verb !== 'create' && attrs.name !== node) return { allowed: false, reason: 'can only access node lease with the same name as the requesting node' };
  return { allowed: true, reason: '' };
}

/**
 * Authorizers asked in order until one allows (k8s.io/apiserver pkg/authorization/union): the
 * first allow wins; when none allows, the denial carries the reasons given, joined.
 */
export function unionAuthorizer(...authorizers: Authorizer[]): Authorizer {
  // Waits only for a member that answers with a promise (see the authenticators' union).
  const askFrom = (from: number, attrs: RequestAttributes, reasons: string[]): Decision | Promise<Decision> => {
    for (let i = from; i < authorizers.length; i++) {
      const answer = authorizers[i]!.authorize(attrs);
      if (isPromise(answer)) return answer.then((d) => decided(d, reasons) ?? askFrom(i + 1, attrs, reasons));
      const done = decided(answer, reasons);
      if (done) return done;
    }
    return { allowed: false, reason: reasons.join(', ') };
  };
  /** The union's answer if this member's allows (the first allow wins); a denial's reason is kept. */
  const decided = (d: Decision, reasons: string[]): Decision | undefined => {
    if (d.allowed) return d;
    if (d.reason) reasons.push(d.reason);
    return undefined;
  };
  return {
    authorize: (attrs) => askFrom(0, attrs, []),
    // The union's rule resolver (union.go unionAuthzRulesHandler.RulesFor): every member's rules,
    // concatenated; incomplete if any member's are. A member with no resolver adds nothing — as
    // upstream's Node authorizer answers (no rules, complete) for every user but a node.
    async rulesFor(user, namespace) {
      const all: RulesFor = { resourceRules: [], nonResourceRules: [], incomplete: false };
      const errors: string[] = [];
      for (const a of authorizers) {
        if (!a.rulesFor) continue;
        const found = await a.rulesFor(user, namespace);
        all.resourceRules.push(...found.resourceRules);
        all.nonResourceRules.push(...found.nonResourceRules);
        all.incomplete ||= found.incomplete;
        if (found.evaluationError) errors.push(found.evaluationError);
      }
      return errors.length > 0 ? { ...all, evaluationError: errors.join(', ') } : all;
    },
  };
}
