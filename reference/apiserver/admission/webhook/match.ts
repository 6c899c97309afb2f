/**
 * Which webhooks a request is sent to. Upstream: generic.Webhook.ShouldCallHook
 * (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/generic/webhook.go) checks
 * - namespaceSelector (predicates/namespace/matcher.go): cluster-scoped objects other than
 *   Namespaces always match; a Namespace being created/updated is matched by its own labels;
 *   otherwise the request's Namespace's labels; an empty selector matches everything;
 * - objectSelector (predicates/object/matcher.go): the object's or the old object's labels;
 * - rules (predicates/rules/rules.go): operation, apiGroup, apiVersion, resource[/subresource]
 *   (each exact or "*"), and scope ("Namespaced" excludes cluster-scoped objects and
 *   Namespaces themselves, "Cluster" the reverse).
 * Webhook configurations themselves are never sent to webhooks
 * (rules.IsExemptAdmissionConfigurationResource), so a broken webhook cannot lock itself in.
 * matchPolicy Equivalent (matching other versions of the same resource) and matchConditions
 * (CEL) are not implemented: rules match the request's own group/version/resource only.
 */
import type { AdmissionAttributes } from '../../pipeline.ts';
import { labelSelectorMatches, type LabelSelector } from '../../authz/labels.ts';
import type { RuleWithOperations, Webhook } from './types.ts';

const EXEMPT_KINDS = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
]);

export function isExemptConfigurationResource(attrs: AdmissionAttributes): boolean {
  return attrs.kind.group === 'admissionregistration.k8s.io' && EXEMPT_KINDS.has(attrs.kind.kind);
}

export function ruleMatches(rule: RuleWithOperations, attrs: AdmissionAttributes): boolean {
  return (
    scopeMatches(rule.scope, attrs) &&
    exactOrWildcard(rule.operations, attrs.operation) &&
    exactOrWildcard(rule.apiGroups, attrs.resource.group) &&
    exactOrWildcard(rule.apiVersions, attrs.resource.version) &&
    resourceMatches(rule.resources ?? [], attrs)
  );
}

function isNamespaceResource(attrs: AdmissionAttributes): boolean {
  return attrs.resource.group === '' && attrs.resource.version === 'v1' && attrs.resource.resource === 'namespaces';
}

function scopeMatches(scope: string | undefined, attrs: AdmissionAttributes): boolean {
  if (scope === undefined || scope === '*') return true;
  if (scope === 'Namespaced') return !isNamespaceResource(attrs) && attrs.namespace !== '';
  if (scope === 'Cluster') return isNamespaceResource(attrs) || attrs.namespace === '';
  return false;
}

function exactOrWildcard(items: readonly string[] | undefined, requested: string): boolean {
  return (items ?? []).some((i) => i === '*' || i === requested);
}

function resourceMatches(resources: readonly string[], attrs: AdmissionAttributes): boolean {
  return resources.some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === attrs.resource.resource) && (sub === '*' || sub === attrs.subresource);
  });
}

export function objectSelectorMatches(selector: LabelSelector | undefined, attrs: AdmissionAttributes): boolean {
  if (isEmptySelector(selector)) return true;
  const labelsOf = (o: any) => (o && typeof o === 'object' ? o.metadata?.labels : undefined);
  return (
    (attrs.object != null && labelSelectorMatches(selector!, labelsOf(attrs.object))) ||
    (attrs.oldObject != null && labelSelectorMatches(selector!, labelsOf(attrs.oldObject)))
  );
}

export type NamespaceSelection = { matches: boolean } | { namespaceMissing: string };

/** `namespaceLabels` is only called when the selector is non-empty and the request is namespaced. */
export async function namespaceSelectorMatches(
  selector: LabelSelector | undefined,
  attrs: AdmissionAttributes,
  namespaceLabels: (ns: string) => Promise<Record<string, string> | undefined> | Record<string, string> | undefined,
): Promise<NamespaceSelection> {
  const namespaceObject = attrs.resource.resource === 'namespaces' && attrs.resource.group === '';
  if (attrs.namespace === '' && !namespaceObject) return { matches: true };
  if (isEmptySelector(selector)) return { matches: true };
  if (namespaceObject && attrs.subresource === '' && (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE')) {
    return { matches: labelSelectorMatches(selector!, attrs.object?.metadata?.labels) };
  }
  const name = attrs.namespace || attrs.name;
  const labels = await namespaceLabels(name);
  if (labels === undefined) return { namespaceMissing: name };
  return { matches: labelSelectorMatches(selector!, labels) };
}

function isEmptySelector(selector: LabelSelector | undefined): boolean {
  if (!selector) return true;
  return Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
}

/** Does any of the webhook's rules match? */
export function webhookRulesMatch(hook: Webhook, attrs: AdmissionAttributes): boolean {
  return (hook.rules ?? []).some((r) => ruleMatches(r, attrs));
}
