/**
 * The two selector languages the scheduler evaluates:
 * - metav1.LabelSelector (matchLabels + matchExpressions with In, NotIn, Exists, DoesNotExist),
 *   used by pod (anti-)affinity terms, topology spread constraints and PDBs. A null selector
 *   selects nothing; an empty one selects everything (LabelSelectorAsSelector).
 * - v1.NodeSelectorTerm (matchExpressions with In, NotIn, Exists, DoesNotExist, Gt, Lt on node
 *   labels; matchFields on metadata.name), used by node affinity. Terms are ORed, the
 *   requirements within a term ANDed, and a term with no requirements matches nothing
 *   (component-helpers/scheduling/corev1/nodeaffinity).
 */
type Labels = Record<string, string> | undefined;

interface Requirement {
  key: string;
  operator: string;
  values?: string[];
}

function matchesRequirement(r: Requirement, labels: Labels): boolean {
  const has = labels !== undefined && Object.hasOwn(labels, r.key);
  const value = has ? labels![r.key]! : undefined;
  switch (r.operator) {
    case 'In': return has && (r.values ?? []).includes(value!);
    case 'NotIn': return !has || !(r.values ?? []).includes(value!);
    case 'Exists': return has;
    case 'DoesNotExist': return !has;
    case 'Gt': return has && Number.isInteger(Number(value)) && Number(value) > Number(r.values?.[0]);
    case 'Lt': return has && Number.isInteger(Number(value)) && Number(value) < Number(r.values?.[0]);
    default: return false;
  }
}

// Asked for every pod on every node a spread constraint counts: written with plain loops, no
// arrays or closures made per call (selectors are JSON objects, so for…in sees only own keys).
export function matchesLabelSelector(selector: any, labels: Labels): boolean {
  if (selector === undefined || selector === null) return false;
  const matchLabels = selector.matchLabels;
  for (const k in matchLabels) {
    if (labels?.[k] !== matchLabels[k]) return false;
  }
  const exprs: Requirement[] | undefined = selector.matchExpressions;
  if (exprs) for (let i = 0; i < exprs.length; i++) if (!matchesRequirement(exprs[i]!, labels)) return false;
  return true;
}

function matchesNodeSelectorTerm(term: any, node: { metadata: { name: string; labels?: Labels } }): boolean {
  const exprs: Requirement[] = term?.matchExpressions ?? [];
  const fields: Requirement[] = term?.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  if (!exprs.every((r) => matchesRequirement(r, node.metadata.labels))) return false;
  return fields.every((r) => r.key === 'metadata.name' && matchesRequirement(r, { 'metadata.name': node.metadata.name }));
}

export function matchesNodeSelectorTerms(terms: any[], node: { metadata: { name: string; labels?: Labels } }): boolean {
  return terms.some((t) => matchesNodeSelectorTerm(t, node));
}

export function matchesNodeSelectorTermPublic(term: any, node: { metadata: { name: string; labels?: Labels } }): boolean {
  return matchesNodeSelectorTerm(term, node);
}
