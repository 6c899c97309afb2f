/** What a person reads at the end of a run: totals, and every failure with its replay line. */
import type { ConformanceReport } from './report/conformance.ts';

export function printRunSummary(report: ConformanceReport, dir: string): void {
  const r = report.totals.rules;
  const s = report.totals.scenarios;
  console.log('');
  for (const rule of report.rules) {
    for (const scenario of rule.scenarios.filter((x) => x.outcome === 'failed')) {
      console.log(`✗ ${rule.id} — ${scenario.name}\n    ${(scenario.detail ?? '').replace(/\n/g, '\n    ')}`);
    }
  }
  console.log(
    `kubespec ${report.target.name}: rules ${r.passed} passed, ${r.failed} failed, ${r['not-applicable']} not-applicable, ` +
      `${r['known-deviation']} known-deviation, ${r.pending} pending, ${r.untestable} untestable` +
      (r['not-run'] ? `, ${r['not-run']} not run` : ''),
  );
  console.log(
    `kubespec ${report.target.name}: scenarios ${s.passed} passed, ${s.failed} failed, ${s['not-applicable']} not-applicable, ${s['known-deviation']} known-deviation`,
  );
  console.log(`reports: ${dir}/ (conformance-report.yaml, claims-matrix.md, cucumber.html, junit.xml, messages.ndjson)`);
}
