// A node:test reporter that counts outcomes and writes them as JSON, so `kubespec test` can sum
// every suite into one "N passed, N failed" line. Suites are not counted; their tests are.
export default async function* counter(source) {
  const counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.details?.type === 'suite') continue;
    if (event.data.skip || event.data.todo) counts.skipped++;
    else if (event.type === 'test:pass') counts.passed++;
    else {
      counts.failed++;
      counts.failures.push(`${event.data.file ?? ''}: ${event.data.name}`);
    }
  }
  yield `${JSON.stringify(counts)}\n`;
}
