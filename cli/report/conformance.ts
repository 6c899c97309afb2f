/**
 * The conformance report: per Rule, what the target did with the claim. Built from the
 * inventory (every Rule, run or not) and the scenario results of one run.
 */
import type { Claim } from '../claims/inventory.ts';
import { CONTRACT_VERSION } from '../../contract/contract.ts';
import { SUITE_BASELINE } from '../../steps/support/versions.ts';
import type { Outcome, ScenarioResult } from './scenarios.ts';

export type RuleOutcome = Outcome | 'pending' | 'untestable' | 'not-run';

export interface RuleReport {
  id: string;
  title: string;
  component: string;
  source: string;
  erratum: boolean;
  outcome: RuleOutcome;
  scenarios: Array<{ name: string; outcome: Outcome; detail?: string }>;
}

export type Totals = Record<RuleOutcome, number>;

export interface ConformanceReport {
  suite: {
    name: string;
    version: string;
    /** The target contract this suite speaks (kubespec/contract CONTRACT_VERSION). */
    contract_version: string;
    /** The upstream versions whose behaviour the scenarios check where a target states none. */
    baseline: Record<string, string>;
  };
  target: {
    name: string;
    capabilities: string[];
    /** The contract version the target implements. */
    contract_version: string;
    /** What the target said it runs (Target.versions()); empty when it did not say. */
    versions: Record<string, string>;
  };
  run: { seed: number; command: string; finished_at: string };
  totals: { rules: Totals; scenarios: Record<Outcome, number> };
  rules: RuleReport[];
}

export interface ReportInput {
  version: string;
  target: ConformanceReport['target'];
  seed: number;
  command: string;
  finishedAt: string;
  claims: Claim[];
  results: ScenarioResult[];
}

export function buildConformance(input: ReportInput): ConformanceReport {
  const byRule = groupBy(input.results, (r) => r.ruleId);
  const rules = input.claims.map((claim) => ruleReport(claim, byRule.get(claim.id) ?? []));
  return {
    suite: { name: 'kubespec', version: input.version, contract_version: CONTRACT_VERSION, baseline: { ...SUITE_BASELINE } },
    target: input.target,
    run: { seed: input.seed, command: input.command, finished_at: input.finishedAt },
    totals: { rules: countRules(rules), scenarios: countScenarios(input.results) },
    rules,
  };
}

function ruleReport(claim: Claim, results: ScenarioResult[]): RuleReport {
  return {
    id: claim.id,
    title: claim.title,
    component: claim.component,
    source: claim.fields.Source ?? '',
    erratum: claim.erratum,
    outcome: ruleOutcome(claim, results),
    scenarios: results.map((r) => ({ name: r.name, outcome: r.outcome, ...(r.detail ? { detail: r.detail } : {}) })),
  };
}

/** A Rule fails if any example fails; it passes only if some example passed and none failed. */
export function ruleOutcome(claim: Pick<Claim, 'status'>, results: ScenarioResult[]): RuleOutcome {
  if (claim.status !== 'testable') return claim.status;
  const has = (o: Outcome) => results.some((r) => r.outcome === o);
  if (has('failed')) return 'failed';
  if (has('known-deviation')) return 'known-deviation';
  if (has('passed')) return 'passed';
  if (has('not-applicable')) return 'not-applicable';
  return 'not-run';
}

function countRules(rules: RuleReport[]): Totals {
  const totals: Totals = { passed: 0, failed: 0, 'not-applicable': 0, 'known-deviation': 0, pending: 0, untestable: 0, 'not-run': 0 };
  for (const r of rules) totals[r.outcome]++;
  return totals;
}

function countScenarios(results: ScenarioResult[]): Record<Outcome, number> {
  const totals: Record<Outcome, number> = { passed: 0, failed: 0, 'not-applicable': 0, 'known-deviation': 0 };
  for (const r of results) totals[r.outcome]++;
  return totals;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
