import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runApiServerBench, QUICK } from './apiserver.ts';

test('the API server bench measures serve and the bare peer side by side at tiny sizes, with a goal on each headline figure', async () => {
  const result = await runApiServerBench({ ...QUICK, objects: 20, warmup: 5, watchers: 3, watchEvents: 3, watchWarmup: 1, rounds: 1, idle_ms: 200 });
  const named = (system: string | undefined, name: string) => result.figures.find((f) => f.system === system && f.name === name);
  for (const verb of ['create', 'get']) {
    assert.ok((named('reference', `${verb} (16 in flight)`)?.value ?? 0) > 0, `reference ${verb}`);
    assert.ok((named('bare node:https', `${verb} (16 in flight)`)?.value ?? 0) > 0, `bare ${verb}`);
    assert.ok(named(undefined, `${verb}: reference ÷ bare`)?.goal?.text.includes('0.5'), `${verb} ratio has its goal`);
  }
  assert.ok(named('reference', 'watch delivery, 3 watchers p99')?.goal);
  assert.ok((named('bare node:https', 'watch delivery, 3 watchers p99')?.value ?? 0) > 0, 'the bare server delivers watch events too');
  const rss = named('reference', 'idle serve RSS (1 node)');
  assert.ok(rss && rss.value > 10 && rss.goal, 'an idle RSS figure with its goal');
  for (const f of result.figures) assert.ok(Number.isFinite(f.value), `${f.name} is a number`);
  assert.ok(!result.notes?.some((n) => n.includes('failed requests')), result.notes?.join('\n'));
});
