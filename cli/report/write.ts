/**
 * Writes the reports a run leaves under reports/<target>/ (conformance YAML, claims matrix)
 * and the combined matrix over every target that has a report. Reads only files, so a report
 * can be rebuilt after the fact from a saved (even partial) message stream.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { CONTRACT_VERSION } from '../../contract/contract.ts';
import { readInventory, type Claim } from '../claims/inventory.ts';
import { buildConformance, type ConformanceReport } from './conformance.ts';
import { matrixHtml, matrixMarkdown } from './matrix.ts';
import { readMessages, scenarioResults, type ScenarioResult } from './scenarios.ts';

// KUBESPEC_REPORTS_DIR: a hidden knob for tests that run `kubespec run` without touching reports/.
export const REPORTS_DIR = process.env.KUBESPEC_REPORTS_DIR ?? 'reports';
export const FEATURES_DIR = 'features';

/** What the CLI records before cucumber starts, so the report can be rebuilt later. */
export interface RunRecord {
  target: string;
  capabilities: string[];
  seed: number;
  command: string;
  /** The contract version the target implements (the suite's own for built-in targets). */
  contractVersion?: string;
}

export function targetDir(target: string): string {
  return path.join(REPORTS_DIR, target);
}

export function saveRunRecord(record: RunRecord): void {
  fs.mkdirSync(targetDir(record.target), { recursive: true });
  fs.writeFileSync(path.join(targetDir(record.target), 'run.json'), `${JSON.stringify(record, null, 2)}\n`);
}

/** `results`: the run's scenario outcomes when the caller has already read them from its stream. */
export function writeTargetReports(target: string, results?: ScenarioResult[]): ConformanceReport {
  const dir = targetDir(target);
  const messages = path.join(dir, 'messages.ndjson');
  if (!fs.existsSync(messages)) throw new Error(`no message stream at ${messages}: run \`kubespec run --target ${target}\` first`);
  const record = JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8')) as RunRecord;
  const { claims } = readInventory(FEATURES_DIR);
  const report = buildConformance({
    version: packageVersion(),
    target: { name: target, capabilities: record.capabilities, contract_version: record.contractVersion ?? CONTRACT_VERSION, versions: readVersions(dir) },
    seed: record.seed,
    command: record.command,
    finishedAt: fs.statSync(messages).mtime.toISOString(),
    claims,
    results: results ?? scenarioResults(readMessages(messages)),
  });
  fs.writeFileSync(path.join(dir, 'conformance-report.yaml'), YAML.stringify(report, { lineWidth: 0 }));
  writeMatrix(dir, claims, [report]);
  writeMatrix(REPORTS_DIR, claims, allReports());
  return report;
}

function writeMatrix(dir: string, claims: Claim[], reports: ConformanceReport[]): void {
  fs.writeFileSync(path.join(dir, 'claims-matrix.md'), matrixMarkdown(claims, reports));
  // The c8 report of the reference run, linked from the page when there is one.
  const coverage = [path.join('coverage', 'index.html'), path.join('reference', 'coverage', 'index.html')].find((f) => fs.existsSync(path.join(dir, f)));
  fs.writeFileSync(path.join(dir, 'claims-matrix.html'), matrixHtml(claims, reports, { ...(coverage ? { coverageHref: coverage } : {}), benchCharts: benchCharts(dir) }));
}

/**
 * The charts `npm run bench` drew (reports/bench/<name>.svg, e.g. proxy.svg: kube-proxy's modes
 * at scale), as links relative to a page in `dir`. The full run's chart, not the --quick one's.
 */
function benchCharts(dir: string): { name: string; href: string }[] {
  const benchDir = path.join(REPORTS_DIR, 'bench');
  if (!fs.existsSync(benchDir)) return [];
  return fs.readdirSync(benchDir)
    .filter((f) => f.endsWith('.svg') && !f.endsWith('.quick.svg'))
    .sort()
    .map((f) => ({ name: f.replace(/\.svg$/, ''), href: path.relative(dir, path.join(benchDir, f)).split(path.sep).join('/') }));
}

/** Every target's last conformance report, for the combined matrix. */
export function allReports(): ConformanceReport[] {
  if (!fs.existsSync(REPORTS_DIR)) return [];
  return fs
    .readdirSync(REPORTS_DIR)
    .map((name) => path.join(REPORTS_DIR, name, 'conformance-report.yaml'))
    .filter((file) => fs.existsSync(file))
    .map((file) => YAML.parse(fs.readFileSync(file, 'utf8')) as ConformanceReport);
}

/** What the target's workers said it runs (steps/support/hooks.ts writes versions.json). */
function readVersions(dir: string): Record<string, string> {
  const file = path.join(dir, 'versions.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {};
}

export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;
}

/** Target directories under reports/ with a saved message stream and run record. */
export function savedRuns(): string[] {
  if (!fs.existsSync(REPORTS_DIR)) return [];
  return fs
    .readdirSync(REPORTS_DIR)
    .filter((name) => ['messages.ndjson', 'run.json'].every((f) => fs.existsSync(path.join(REPORTS_DIR, name, f))))
    .sort();
}

export interface CombinedReport {
  kind: 'combined';
  suite: ConformanceReport['suite'];
  generated_at: string;
  targets: ConformanceReport[];
  /** Rule id → target → outcome. */
  matrix: Record<string, Record<string, string>>;
}

/**
 * `kubespec matrix`: every saved run's report rebuilt from its message stream, then one Rule ×
 * target table (reports/claims-matrix.md, .html) and one combined reports/conformance-report.yaml.
 */
export function writeCombinedReports(now: Date = new Date()): { reports: ConformanceReport[]; combined: CombinedReport } {
  const reports = savedRuns().map((name) => writeTargetReports(name));
  const { claims } = readInventory(FEATURES_DIR);
  writeMatrix(REPORTS_DIR, claims, reports);
  const matrix: CombinedReport['matrix'] = {};
  for (const claim of claims) matrix[claim.id] = Object.fromEntries(reports.map((r) => [r.target.name, r.rules.find((x) => x.id === claim.id)?.outcome ?? 'not-run']));
  const combined: CombinedReport = {
    kind: 'combined',
    suite: reports[0]?.suite ?? buildConformance({ version: packageVersion(), target: { name: '-', capabilities: [], contract_version: CONTRACT_VERSION, versions: {} }, seed: 0, command: '', finishedAt: '', claims: [], results: [] }).suite,
    generated_at: now.toISOString(),
    targets: reports,
    matrix,
  };
  fs.writeFileSync(path.join(REPORTS_DIR, 'conformance-report.yaml'), YAML.stringify(combined, { lineWidth: 0 }));
  return { reports, combined };
}
