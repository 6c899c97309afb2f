/**
 * `kubespec check-target X` (also `run --dry-run`): the first thing an adapter author runs. It
 * builds the target, starts it, opens one session, and says what the suite would do with it:
 * its contract version and versions, the capabilities it declares and whether the session
 * carries the facet behind each, and which Rules would run or be not-applicable (and for want
 * of what). Then it closes the session and stops the target. Nothing is run.
 */
import { readInventory, type Claim } from './claims/inventory.ts';
import { CONTRACT_VERSION, type Session, type Target } from '../contract/contract.ts';
import type { ResolvedTarget } from './config.ts';
import { FEATURES_DIR } from './report/write.ts';
import { EXIT_FAILURES, EXIT_OK } from './usage.ts';

/** The facet a capability promises, where one capability stands for one facet (or optional method). */
const FACET_OF: Record<string, (s: Session) => unknown> = {
  'kv': (s) => s.kv,
  'kv.watch': (s) => s.kv?.watch,
  'kv.compaction': (s) => s.kv?.compact,
  'kv.snapshot': (s) => s.kv?.snapshotSave && s.kv?.snapshotRestore,
  'kv.members': (s) => s.members,
  'kv.metrics': (s) => s.kvMetrics,
  'net.partition': (s) => s.members?.partition,
  'disk.latency': (s) => s.members?.setDiskLatency,
  'raft.observe': (s) => s.raft,
  'kv.fault-schedules': (s) => s.faultSchedules,
  'clock.virtual': (s) => s.clock,
  'kube.api': (s) => s.kube,
  'kube.compaction': (s) => s.kube?.compact,
  'kube.storage': (s) => s.kube?.storageGet,
  'kube.audit': (s) => s.kube?.traces,
  'kubectl': (s) => s.kube?.kubeconfigPath,
};

export interface RulePlan {
  run: Claim[];
  notApplicable: Array<{ claim: Claim; missing: string[] }>;
}

/** A Rule runs if any of its scenarios has every capability it requires. */
export function planRules(claims: Claim[], capabilities: ReadonlySet<string>): RulePlan {
  const plan: RulePlan = { run: [], notApplicable: [] };
  for (const claim of claims.filter((c) => c.status === 'testable')) {
    const missingPer = claim.scenarios.map((s) => s.requires.filter((r) => !capabilities.has(r)));
    if (missingPer.some((m) => m.length === 0)) plan.run.push(claim);
    else plan.notApplicable.push({ claim, missing: [...new Set(missingPer.flat())].sort() });
  }
  return plan;
}

/** Facets a declared capability promises but the session lacks: the adapter author's first bug. */
export function missingFacets(capabilities: ReadonlySet<string>, session: Session): string[] {
  return [...capabilities].filter((c) => FACET_OF[c] && !FACET_OF[c]!(session)).sort();
}

export async function checkTargetReport(target: Target, resolved: ResolvedTarget): Promise<number> {
  const caps = new Set<string>(target.capabilities);
  console.log(`target ${target.name} (${resolved.env.KUBESPEC_TARGET_MODULE ?? 'built-in'})`);
  console.log(`  contract: target implements ${target.contractVersion ?? CONTRACT_VERSION}; suite speaks ${CONTRACT_VERSION}`);
  await target.start();
  let problems: string[] = [];
  try {
    const versions = (await target.versions?.()) ?? {};
    console.log(`  versions: ${Object.entries(versions).map(([k, v]) => `${k} ${v}`).join(', ') || '(not declared)'}`);
    const session = await target.openSession({ seed: 1, name: 'kubespec check-target', tags: [] });
    try {
      problems = missingFacets(caps, session).map((c) => `declares ${c} but the session has no facet for it`);
      console.log(`  session: opened; facts ${JSON.stringify(session.describe())}`);
    } finally {
      await session.close();
    }
  } finally {
    await target.stop();
  }
  console.log(`  capabilities (${caps.size}): ${[...caps].sort().join(', ')}`);
  if (target.knownDeviations.size > 0) console.log(`  known deviations: ${[...target.knownDeviations.keys()].join(', ')}`);
  const plan = planRules(readInventory(FEATURES_DIR).claims, caps);
  console.log(`\nRules that would run (${plan.run.length}):`);
  for (const c of plan.run) console.log(`  ${c.id.padEnd(32)} ${c.title}`);
  const byMissing = new Map<string, string[]>();
  for (const { claim, missing } of plan.notApplicable) byMissing.set(missing.join(' + '), [...(byMissing.get(missing.join(' + ')) ?? []), claim.id]);
  console.log(`\nRules not-applicable (${plan.notApplicable.length}), by what the target lacks:`);
  for (const [missing, ids] of [...byMissing].sort((a, b) => b[1].length - a[1].length)) console.log(`  ${String(ids.length).padStart(3)} lack ${missing}`);
  for (const p of problems) console.log(`problem: ${p}`);
  console.log(problems.length ? `\ncheck-target: ${problems.length} problem(s)` : '\ncheck-target: ok — the session opened and closed');
  return problems.length ? EXIT_FAILURES : EXIT_OK;
}
