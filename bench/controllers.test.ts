import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runControllersBench, runFleetBench } from './controllers.ts';

test('the controllers bench creates, rolls out and rolls over a small Deployment, with a goal on each headline figure', async () => {
  const result = await runControllersBench({ replicas: 4 });
  assert.equal(result.figures.length, 4);
  for (const f of result.figures) assert.ok(Number.isFinite(f.value) && f.value >= 0, `${f.name} is a number`);
  assert.ok(result.figures[0]!.goal && result.figures[2]!.goal);
});

test('the fleet bench gets every pod of a few small Deployments Running through the scheduler and kubelets', async () => {
  const result = await runFleetBench({ deployments: 2, replicas: 3, nodes: 1, budget_ms: 30_000 });
  assert.equal(result.figures.find((f) => f.unit === 'pods')!.value, 6);
  assert.ok(result.figures[0]!.goal);
});

test('the fleet bench runs with the components in process, as the reference target wires them', async () => {
  const result = await runFleetBench({ deployments: 2, replicas: 3, nodes: 1, budget_ms: 30_000, wiring: 'in-process' });
  assert.equal(result.figures.find((f) => f.unit === 'pods')!.value, 6);
  assert.match(result.figures[0]!.name, /in process/);
});
