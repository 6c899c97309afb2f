/**
 * Label selectors: the string form of k8s.io/apimachinery/pkg/labels (selector.go Parse) —
 * `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`, comma = AND —
 * and the metav1.LabelSelector object form (matchLabels, matchExpressions).
 */
import { ApiError, errors } from '../status.ts';

export type Operator = 'in' | 'notin' | 'exists' | '!' | '=' | '!=' | 'gt' | 'lt';

export interface Requirement {
  key: string;
  op: Operator;
  values: string[];
}

export type Labels = Record<string, string> | undefined;

const IDENT = /^[A-Za-z0-9._\/-]+$/;

function fail(detail: string): ApiError {
  return errors.badRequest(`unable to parse requirement: ${detail}`);
}

/** Splits on commas that are not inside parentheses. */
function splitTerms(s: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms.map((t) => t.trim());
}

function checkKey(key: string): string {
  if (!IDENT.test(key)) throw fail(`invalid label key ${JSON.stringify(key)}`);
  return key;
}

function checkValue(v: string): string {
  if (v !== '' && !IDENT.test(v)) throw fail(`invalid label value: ${JSON.stringify(v)}`);
  return v;
}

function parseSet(rest: string): string[] {
  const m = /^\((.*)\)$/.exec(rest.trim());
  if (!m) throw fail(`found '${rest.trim()}', expected: '('`);
  return m[1]!.split(',').map((v) => checkValue(v.trim()));
}

function parseTerm(term: string): Requirement {
  if (term.startsWith('!')) return { key: checkKey(term.slice(1).trim()), op: '!', values: [] };
  const setMatch = /^([^\s=!<>()]+)\s+(in|notin)\s*(\(.*\))$/.exec(term);
  if (setMatch) {
    const op = setMatch[2] as 'in' | 'notin';
    return { key: checkKey(setMatch[1]!), op, values: parseSet(setMatch[3]!) };
  }
  const opMatch = /^([^\s=!<>()]+)\s*(==|!=|=|>|<)\s*(.*)$/.exec(term);
  if (opMatch) {
    const raw = opMatch[2]!;
    const op: Operator = raw === '==' || raw === '=' ? '=' : raw === '!=' ? '!=' : raw === '>' ? 'gt' : 'lt';
    const value = opMatch[3]!.trim();
    if ((op === 'gt' || op === 'lt') && !/^-?\d+$/.test(value)) throw fail(`for 'Gt', 'Lt' operators, the value must be an integer`);
    return { key: checkKey(opMatch[1]!), op, values: [checkValue(value)] };
  }
  return { key: checkKey(term), op: 'exists', values: [] };
}

/** Parses a labelSelector query value; the empty string selects everything. Throws a 400 ApiError. */
export function parseLabelSelector(s: string): Requirement[] {
  if (s.trim() === '') return [];
  return splitTerms(s).map((t) => {
    if (t === '') throw fail('found \'\', expected: identifier');
    return parseTerm(t);
  });
}

export function matchesRequirement(r: Requirement, labels: Labels): boolean {
  const has = labels !== undefined && Object.hasOwn(labels, r.key);
  const value = has ? labels![r.key]! : undefined;
  switch (r.op) {
    case 'exists':
      return has;
    case '!':
      return !has;
    case '=':
      return has && value === r.values[0];
    case '!=':
      return !has || value !== r.values[0];
    case 'in':
      return has && r.values.includes(value!);
    case 'notin':
      return !has || !r.values.includes(value!);
    case 'gt':
    case 'lt': {
      if (!has || !/^-?\d+$/.test(value!)) return false;
      const n = Number(value);
      const bound = Number(r.values[0]);
      return r.op === 'gt' ? n > bound : n < bound;
    }
  }
}

export function matchesLabels(reqs: Requirement[], labels: Labels): boolean {
  return reqs.every((r) => matchesRequirement(r, labels));
}

/** metav1.LabelSelector → requirements (LabelSelectorAsSelector). An empty selector matches everything. */
export function requirementsOf(sel: any): Requirement[] {
  const reqs: Requirement[] = [];
  if (!sel || typeof sel !== 'object') return reqs;
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) reqs.push({ key: k, op: '=', values: [String(v)] });
  for (const e of Array.isArray(sel.matchExpressions) ? sel.matchExpressions : []) {
    const op = String(e?.operator ?? '');
    const values = Array.isArray(e?.values) ? e.values.map(String) : [];
    const key = String(e?.key ?? '');
    if (op === 'In') reqs.push({ key, op: 'in', values });
    else if (op === 'NotIn') reqs.push({ key, op: 'notin', values });
    else if (op === 'Exists') reqs.push({ key, op: 'exists', values: [] });
    else if (op === 'DoesNotExist') reqs.push({ key, op: '!', values: [] });
  }
  return reqs;
}

/** The selector as a string, the way Scale.status.selector carries it. */
export function formatRequirements(reqs: Requirement[]): string {
  return reqs
    .map((r) => {
      switch (r.op) {
        case 'exists':
          return r.key;
        case '!':
          return `!${r.key}`;
        case '=':
          return `${r.key}=${r.values[0]}`;
        case '!=':
          return `${r.key}!=${r.values[0]}`;
        case 'in':
        case 'notin':
          return `${r.key} ${r.op} (${r.values.join(',')})`;
        case 'gt':
          return `${r.key}>${r.values[0]}`;
        case 'lt':
          return `${r.key}<${r.values[0]}`;
      }
    })
    .join(',');
}
