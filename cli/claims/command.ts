/** `kubespec claims`: list the book's claims, summarise them, or check the inventory. */
import { readInventory, type Claim } from './inventory.ts';
import { allReports, FEATURES_DIR } from '../report/write.ts';
import { EXIT_FAILURES, EXIT_OK } from '../usage.ts';

export interface ClaimsOptions {
  check?: boolean;
  summary?: boolean;
  format?: 'text' | 'json';
}

export function claimsCommand(opts: ClaimsOptions): number {
  const { claims, problems } = readInventory(FEATURES_DIR);
  if (opts.check) {
    for (const p of problems) console.log(`${p.file}:${p.line}: ${p.message}`);
    console.log(problems.length ? `claims check: ${problems.length} problem(s) in ${claims.length} claims` : `claims check: ${claims.length} claims, no problems`);
    return problems.length ? EXIT_FAILURES : EXIT_OK;
  }
  if (opts.format === 'json') console.log(JSON.stringify(claims, null, 2));
  else if (opts.summary) printSummary(claims);
  else printList(claims);
  return EXIT_OK;
}

function printList(claims: Claim[]): void {
  const outcomes = latestOutcomes();
  for (const c of claims) {
    const flags = [c.status, c.erratum ? 'erratum' : '', ...[...outcomes].map(([t, o]) => (o.get(c.id) ? `${t}:${o.get(c.id)}` : ''))];
    console.log(`${c.id.padEnd(28)} ${flags.filter(Boolean).join(' ').padEnd(36)} ${c.title}`);
  }
  printSummary(claims);
}

/** Claims per component and status, and each target's last outcomes. */
export function printSummary(claims: Claim[]): void {
  const components = [...new Set(claims.map((c) => c.component))].sort();
  console.log(`\n${'component'.padEnd(14)} ${'rules'.padStart(5)} ${'testable'.padStart(8)} ${'pending'.padStart(7)} ${'untestable'.padStart(10)} ${'erratum'.padStart(7)}`);
  for (const name of [...components, 'total']) {
    const of = name === 'total' ? claims : claims.filter((c) => c.component === name);
    const count = (f: (c: Claim) => boolean) => String(of.filter(f).length);
    console.log(
      `${name.padEnd(14)} ${String(of.length).padStart(5)} ${count((c) => c.status === 'testable').padStart(8)} ` +
        `${count((c) => c.status === 'pending').padStart(7)} ${count((c) => c.status === 'untestable').padStart(10)} ${count((c) => c.erratum).padStart(7)}`,
    );
  }
  for (const report of allReports()) {
    const r = report.totals.rules;
    console.log(`last run on ${report.target.name}: ${r.passed} passed, ${r.failed} failed, ${r['not-applicable']} not-applicable, ${r['known-deviation']} known-deviation`);
  }
}

function latestOutcomes(): Map<string, Map<string, string>> {
  return new Map(allReports().map((r) => [r.target.name, new Map(r.rules.map((rule) => [rule.id, rule.outcome]))]));
}
