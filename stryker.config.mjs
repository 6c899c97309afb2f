/**
 * Stryker (StrykerJS 9, the last line that runs on Node 20) over one component of the reference,
 * killed by the feature suite alone: the command runner runs cucumber on the component's
 * features against the reference target, and a mutant counts as killed when a scenario fails.
 * `npm run mutation -- <component>` (bin/mutation.mjs) sets KUBESPEC_MUTATION to the
 * component; see mutation/components.mjs for the list.
 */
import { COMPONENTS } from './mutation/components.mjs';

const name = process.env.KUBESPEC_MUTATION ?? 'scheduler-tainttoleration';
const component = COMPONENTS[name];
if (!component) throw new Error(`unknown mutation component "${name}" (have: ${Object.keys(COMPONENTS).join(', ')})`);

const tags = ['not @pending and not @untestable', ...(component.tags ? [component.tags] : [])].map((t) => `(${t})`).join(' and ');
const cucumber = [
  'node node_modules/@cucumber/cucumber/bin/cucumber.js',
  ...component.features,
  "--import 'steps/**/*.ts'",
  `--tags '${tags}'`,
  '--format summary',
].join(' ');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: component.mutate,
  testRunner: 'command',
  // A fixed seed, so every mutant meets the same scenarios; the reference on virtual time.
  commandRunner: { command: `KUBESPEC_TARGET=reference KUBESPEC_SEED=20261130 NODE_OPTIONS='--import tsx' ${cucumber}` },
  coverageAnalysis: 'off',
  // The machine is shared: two mutants at a time.
  concurrency: 2,
  timeoutMS: 60_000,
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: `reports/mutation/${name}/index.html` },
  jsonReporter: { fileName: `reports/mutation/${name}/mutation.json` },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  // Only what the features need is copied into the sandbox.
  ignorePatterns: ['reports', 'e2e', 'bench', 'examples', 'lincheck', 'docs', '.tmp', 'coverage'],
};
