/**
 * `kubespec matrix`: from every target's saved message stream on this machine
 * (reports/<target>/messages.ndjson), one Rule × target table and one combined
 * conformance-report.yaml, each report checked against schemas/conformance-report.schema.json.
 */
import path from 'node:path';
import { REPORTS_DIR, writeCombinedReports } from './report/write.ts';
import { schemaProblems } from './report/schema.ts';
import { EXIT_FAILURES, EXIT_OK, UsageError } from './usage.ts';

export function matrixCommand(): number {
  const { reports, combined } = writeCombinedReports();
  if (reports.length === 0) throw new UsageError(`no saved runs under ${REPORTS_DIR}/`, 'run a target first, e.g. kubespec run --target reference');
  console.log(`${'target'.padEnd(16)} ${'passed'.padStart(6)} ${'failed'.padStart(6)} ${'n/a'.padStart(6)} ${'deviation'.padStart(9)}  versions`);
  for (const r of reports) {
    const t = r.totals.rules;
    const versions = Object.entries(r.target.versions).map(([k, v]) => `${k} ${v}`).join(', ') || '-';
    console.log(`${r.target.name.padEnd(16)} ${String(t.passed).padStart(6)} ${String(t.failed).padStart(6)} ${String(t['not-applicable']).padStart(6)} ${String(t['known-deviation']).padStart(9)}  ${versions}`);
  }
  const problems = [combined, ...reports].flatMap((r, i) => schemaProblems(r).map((p) => `${i === 0 ? 'combined report' : reports[i - 1]!.target.name}: ${p}`));
  for (const p of problems) console.error(`schema: ${p}`);
  console.log(`matrix: ${path.join(REPORTS_DIR, 'claims-matrix.md')}, ${path.join(REPORTS_DIR, 'claims-matrix.html')}, ${path.join(REPORTS_DIR, 'conformance-report.yaml')} (contract ${combined.suite.contract_version}; ${problems.length ? `${problems.length} schema problem(s)` : 'validates against schemas/conformance-report.schema.json'})`);
  return problems.length ? EXIT_FAILURES : EXIT_OK;
}
