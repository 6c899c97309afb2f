import { test } from 'node:test';
import assert from 'node:assert/strict';
import bench from './scheduler.ts';

test('the scheduler bench schedules every pod of both workloads at tiny sizes and states its goals', async () => {
  const result = await bench({ quick: true });
  const figure = (prefix: string) => result.figures.find((f) => f.name.startsWith(prefix));
  assert.ok((figure('SchedulingBasic')?.value ?? 0) > 0);
  assert.equal(result.figures.find((f) => f.name.endsWith('pods left unscheduled') && f.name.startsWith('SchedulingBasic'))?.value, 0);
  assert.ok(figure('peak RSS')?.goal);
  for (const f of result.figures) assert.ok(Number.isFinite(f.value), `${f.name} is a number`);
});
