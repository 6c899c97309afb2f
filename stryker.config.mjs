/**
 * Stryker (StrykerJS 9, the last line that runs on Node 20) over one component of the reference,
 * killed by the feature suite alone: its cucumber runner runs the component's features against
 * the reference target, and a mutant counts as killed when a scenario fails.
 * `npm run mutation -- <component>` (bin/mutation.mjs) sets KUBESPEC_MUTATION to the
 * component; see mutation/components.mjs for the list.
 */
import { COMPONENTS } from './mutation/components.mjs';

const name = process.env.KUBESPEC_MUTATION ?? 'scheduler-tainttoleration';
const component = COMPONENTS[name];
if (!component) throw new Error(`unknown mutation component "${name}" (have: ${Object.keys(COMPONENTS).join(', ')})`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  // KUBESPEC_MUTATE narrows a big component to files or line ranges (comma-separated, Stryker's
  // `path:from-to` form), so a run fits in the time there is; the default is the whole component.
  mutate: process.env.KUBESPEC_MUTATE ? process.env.KUBESPEC_MUTATE.split(',') : component.mutate,
  // In-process cucumber (bin/mutation.mjs sets KUBESPEC_TARGET=reference, a fixed seed and
  // NODE_OPTIONS=--import tsx for its workers): per-scenario coverage, so each mutant runs only
  // the scenarios that reach it.
  testRunner: 'cucumber',
  plugins: ['@stryker-mutator/cucumber-runner'],
  cucumber: { profile: 'mutation', features: component.features, tags: ['not @pending and not @untestable', ...(component.tags ? [component.tags] : [])] },
  // Per scenario by default: each mutant runs only the scenarios that reached it. A component
  // whose code runs after the scenario that set it going (a watch's events, delivered from
  // timers and queued promises) may be reached by a scenario Stryker does not credit with it;
  // 'all' (component.coverageAnalysis, or KUBESPEC_MUTATION_COVERAGE) runs every scenario of
  // the component's features on every mutant instead: slower, and no mutant goes untested.
  coverageAnalysis: process.env.KUBESPEC_MUTATION_COVERAGE ?? component.coverageAnalysis ?? 'perTest',
  // The machine is shared: two mutants at a time.
  concurrency: Number(process.env.KUBESPEC_MUTATION_CONCURRENCY ?? 2),
  // KUBESPEC_MUTATION_TIMEOUT_MS lowers it for components whose scenarios are all on virtual time
  // (a mutant that hangs a scenario then costs seconds, not a minute).
  timeoutMS: Number(process.env.KUBESPEC_MUTATION_TIMEOUT_MS ?? 60_000),
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: `reports/mutation/${name}/index.html` },
  jsonReporter: { fileName: `reports/mutation/${name}/mutation.json` },
  // KUBESPEC_MUTATION_INCREMENTAL=1 re-tests only what changed since the last run of the
  // component (Stryker's incremental mode): mutants whose code and covering scenarios are as
  // before keep their result, so a re-run after new scenarios costs what they cover.
  incremental: process.env.KUBESPEC_MUTATION_INCREMENTAL === '1',
  incrementalFile: `reports/mutation/${name}/incremental.json`,
  // KUBESPEC_MUTATION_FORCE=1 with it: re-test every mutant in the (narrowed) mutate set anyway,
  // e.g. after a change to the dataplane model, which Stryker's diff does not see.
  force: process.env.KUBESPEC_MUTATION_FORCE === '1',
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  // Only what the features need is copied into the sandbox.
  ignorePatterns: ['reports', 'e2e', 'bench', 'examples', 'docs', '.tmp', 'coverage'],
};
