/**
 * How the hooks tell the report what cucumber's statuses cannot: a scenario skipped because
 * the target lacks a capability is not-applicable (and names it), a scenario of a claim the
 * target is known to deviate from carries the reason. The report reads these attachments.
 */
export const OUTCOME_MEDIA_TYPE = 'application/vnd.kubespec.outcome+json';

export type OutcomeNote =
  | { kind: 'not-applicable'; missing: string[]; reason?: string }
  | { kind: 'known-deviation'; reason: string }
  | { kind: 'replay'; seed: number; runSeed: number; command: string; target: string; facts: Record<string, unknown> };

interface RuleLike { name: string; children: readonly { scenario?: { id: string } }[] }
interface DocLike { feature?: { children: readonly { rule?: RuleLike }[] } }

/** The id of the Rule a pickle's scenario sits under: the first word of the Rule's name. */
export function ruleIdOf(doc: DocLike, pickle: { astNodeIds: readonly string[] }): string | undefined {
  const scenarioId = pickle.astNodeIds[0];
  for (const child of doc.feature?.children ?? []) {
    const rule = child.rule;
    if (rule?.children.some((c) => c.scenario?.id === scenarioId)) return rule.name.split(/\s/)[0];
  }
  return undefined;
}
