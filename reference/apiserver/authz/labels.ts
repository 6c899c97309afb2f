/**
 * metav1.LabelSelector evaluation (matchLabels AND every matchExpressions requirement), as
 * metav1.LabelSelectorAsSelector in staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go
 * builds it: an empty selector matches everything; operators In, NotIn, Exists, DoesNotExist.
 * Used by ClusterRole aggregation and by webhook namespace/object selectors.
 */
export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export type Labels = Record<string, string>;

export function labelSelectorMatches(selector: LabelSelector, labels: Labels | undefined): boolean {
  const have = labels ?? {};
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (have[key] !== value) return false;
  }
  return (selector.matchExpressions ?? []).every((req) => requirementMatches(req, have));
}

function requirementMatches(req: LabelSelectorRequirement, labels: Labels): boolean {
  const present = Object.prototype.hasOwnProperty.call(labels, req.key);
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return present && values.includes(labels[req.key]!);
    case 'NotIn':
      return !present || !values.includes(labels[req.key]!);
    case 'Exists':
      return present;
    case 'DoesNotExist':
      return !present;
    default:
      // An unknown operator is a conversion error upstream; such a selector selects nothing.
      return false;
  }
}
