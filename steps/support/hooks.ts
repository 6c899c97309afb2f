/**
 * Hooks: build the target once per worker, give each scenario a fresh session, decide
 * not-applicable from @requires tags, and on failure print the seed and the replay command.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AfterAll, After, Before, BeforeAll, Status, setDefaultTimeout } from '@cucumber/cucumber';
import { createTargetFromEnv } from '../../adapters/registry.ts';
import { DEFAULT_RUN_SEED, parseSeed, scenarioSeed } from '../../adapters/seed.ts';
import type { Target } from '../../contract/contract.ts';
import { OUTCOME_MEDIA_TYPE, ruleIdOf, type OutcomeNote } from './outcome.ts';
import type { KubespecWorld } from './world.ts';
import { versionMismatch } from './versions.ts';

// Real targets wait in real time within bounded budgets; the step timeout is the outer bound.
setDefaultTimeout(120_000);

const targetName = process.env.KUBESPEC_TARGET ?? 'reference';
// What the person passed to --target (a plug-in's path or config name), for the replay command.
const targetSpec = process.env.KUBESPEC_TARGET_SPEC ?? targetName;
const runSeed = parseSeed(process.env.KUBESPEC_SEED) ?? DEFAULT_RUN_SEED;
let target: Target | undefined;
/** What the target says it runs (Target.versions()), for the version-range tags. */
let versions: Record<string, string> = {};

BeforeAll({ timeout: 180_000 }, async function () {
  target = await createTargetFromEnv(process.env);
  await target.start();
  versions = (await target.versions?.()) ?? {};
  // The report states what the target said it runs (one worker writing is enough; all agree).
  if (process.env.KUBESPEC_RUN_DIR) fs.writeFileSync(path.join(process.env.KUBESPEC_RUN_DIR, 'versions.json'), `${JSON.stringify(versions)}\n`);
});

AfterAll({ timeout: 120_000 }, async function () {
  await target?.stop();
});

Before({ timeout: 180_000 }, async function (this: KubespecWorld, { pickle, gherkinDocument }) {
  if (!target) throw new Error('the target did not start');
  this.target = target;
  const tags = pickle.tags.map((t) => t.name);
  const missing = requiredCapabilities(tags).filter((c) => !target!.capabilities.has(c as never));
  if (missing.length > 0) {
    attachOutcome(this, { kind: 'not-applicable', missing });
    return 'skipped';
  }
  const otherVersion = versionMismatch(tags, versions);
  if (otherVersion) {
    attachOutcome(this, { kind: 'not-applicable', missing: [], reason: otherVersion });
    return 'skipped';
  }
  const ruleId = ruleIdOf(gherkinDocument, pickle);
  const deviation = ruleId ? (target.knownDeviations.get(`${ruleId} — ${pickle.name}`) ?? target.knownDeviations.get(ruleId)) : undefined;
  if (deviation) attachOutcome(this, { kind: 'known-deviation', reason: deviation });
  const seed = scenarioSeed(runSeed, `${pickle.uri}:${pickle.name}`);
  this.session = await target.openSession({ seed, name: pickle.name, tags });
  return undefined;
});

After({ timeout: 120_000 }, async function (this: KubespecWorld, { pickle, result }) {
  if (!this.session) return;
  if (result?.status === Status.FAILED) reportReplay(this, pickle.name);
  for (const cleanup of this.cleanups.reverse()) {
    // Best effort: a failed clean-up must not hide the scenario's own result.
    await cleanup().catch(() => undefined);
  }
  await this.session.close();
});

function requiredCapabilities(tags: string[]): string[] {
  return tags.filter((t) => t.startsWith('@requires:')).map((t) => t.slice('@requires:'.length));
}

function attachOutcome(world: KubespecWorld, note: OutcomeNote): void {
  world.attach(JSON.stringify(note), OUTCOME_MEDIA_TYPE);
}

function reportReplay(world: KubespecWorld, scenarioName: string): void {
  const nameRegex = `^${scenarioName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
  const command = `npx kubespec run --target ${targetSpec} --seed ${runSeed} --name '${nameRegex.replace(/'/g, `'\\''`)}'`;
  const facts = world.session.describe();
  attachOutcome(world, { kind: 'replay', seed: world.session.seed, runSeed, command, target: targetName, facts });
  world.log(`seed ${world.session.seed} (run seed ${runSeed}); replay: ${command}\nfacts: ${JSON.stringify(facts)}`);
}
