import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runControllersBench } from './controllers.ts';

test('the controllers bench creates, rolls out and rolls over a small Deployment, with a goal on each headline figure', async () => {
  const result = await runControllersBench({ replicas: 4 });
  assert.equal(result.figures.length, 4);
  for (const f of result.figures) assert.ok(Number.isFinite(f.value) && f.value >= 0, `${f.name} is a number`);
  assert.ok(result.figures[0]!.goal && result.figures[2]!.goal);
});
