/**
 * Writes the reports a run leaves under reports/<target>/ (conformance YAML, claims matrix)
 * and the combined matrix over every target that has a report. Reads only files, so a report
 * can be rebuilt after the fact from a saved (even partial) message stream.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { readInventory, type Claim } from '../claims/inventory.ts';
import { buildConformance, type ConformanceReport } from './conformance.ts';
import { matrixHtml, matrixMarkdown } from './matrix.ts';
import { readMessages, scenarioResults } from './scenarios.ts';

// KUBESPEC_REPORTS_DIR: a hidden knob for tests that run `kubespec run` without touching reports/.
export const REPORTS_DIR = process.env.KUBESPEC_REPORTS_DIR ?? 'reports';
export const FEATURES_DIR = 'features';

/** What the CLI records before cucumber starts, so the report can be rebuilt later. */
export interface RunRecord {
  target: string;
  capabilities: string[];
  seed: number;
  command: string;
}

export function targetDir(target: string): string {
  return path.join(REPORTS_DIR, target);
}

export function saveRunRecord(record: RunRecord): void {
  fs.mkdirSync(targetDir(record.target), { recursive: true });
  fs.writeFileSync(path.join(targetDir(record.target), 'run.json'), `${JSON.stringify(record, null, 2)}\n`);
}

export function writeTargetReports(target: string): ConformanceReport {
  const dir = targetDir(target);
  const messages = path.join(dir, 'messages.ndjson');
  if (!fs.existsSync(messages)) throw new Error(`no message stream at ${messages}: run \`kubespec run --target ${target}\` first`);
  const record = JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8')) as RunRecord;
  const { claims } = readInventory(FEATURES_DIR);
  const report = buildConformance({
    version: packageVersion(),
    target: { name: target, capabilities: record.capabilities },
    seed: record.seed,
    command: record.command,
    finishedAt: fs.statSync(messages).mtime.toISOString(),
    claims,
    results: scenarioResults(readMessages(messages)),
  });
  fs.writeFileSync(path.join(dir, 'conformance-report.yaml'), YAML.stringify(report, { lineWidth: 0 }));
  writeMatrix(dir, claims, [report]);
  writeMatrix(REPORTS_DIR, claims, allReports());
  return report;
}

function writeMatrix(dir: string, claims: Claim[], reports: ConformanceReport[]): void {
  fs.writeFileSync(path.join(dir, 'claims-matrix.md'), matrixMarkdown(claims, reports));
  fs.writeFileSync(path.join(dir, 'claims-matrix.html'), matrixHtml(claims, reports));
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

export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;
}
