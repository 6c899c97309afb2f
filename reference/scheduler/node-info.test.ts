import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeInfo } from './node-info.ts';
import { matchesLabelSelector } from './selectors.ts';
import { node, pod, seeded } from './testing.ts';
import type { Pod } from './types.ts';

const selectors = [
  { matchLabels: { app: 'a' } },
  { matchExpressions: [{ key: 'app', operator: 'In', values: ['a', 'b'] }] },
  { matchLabels: { tier: 'web' }, matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['c'] }] },
];
const weighOf = (selector: object) => (p: Pod) => (!p.metadata.deletionTimestamp && matchesLabelSelector(selector, p.metadata.labels) ? 1 : 0);

function randomPod(random: () => number, name: string): Pod {
  const labels: Record<string, string> = { app: ['a', 'b', 'c'][Math.floor(random() * 3)]! };
  if (random() < 0.5) labels['tier'] = 'web';
  const p = pod(name, { labels });
  if (random() < 0.2) (p.metadata as any).deletionTimestamp = '2026-01-01T00:00:00Z';
  return p;
}

test('a remembered tally stays the sum over the node\'s pods through adds, updates and removals', () => {
  const random = seeded(7);
  const info = new NodeInfo(node('n1'));
  for (let step = 0; step < 600; step++) {
    const name = `p${Math.floor(random() * 30)}`;
    const r = random();
    if (r < 0.6) info.addPod(randomPod(random, name)); // a new pod, or an update of one held
    else if (info.pods.has(`default/${name}`)) info.removePod(info.pods.get(`default/${name}`)!);
    // Ask for one selector's sum now and then, so sums are remembered at different moments.
    const which = Math.floor(random() * selectors.length);
    if (random() < 0.3) info.tally(`s${which}`, weighOf(selectors[which]!));
    for (const [i, selector] of selectors.entries()) {
      const recount = [...info.pods.values()].reduce((sum, p) => sum + weighOf(selector)(p), 0);
      assert.equal(info.tally(`s${i}`, weighOf(selector)), recount, `step ${step}, selector ${i}`);
    }
  }
});

test('label selectors: matchLabels and every operator ANDed; a null selector selects nothing, an empty one everything', () => {
  const labels = { app: 'web', tier: 'front' };
  const cases: [any, boolean][] = [
    [null, false],
    [undefined, false],
    [{}, true],
    [{ matchLabels: { app: 'web' } }, true],
    [{ matchLabels: { app: 'web', tier: 'back' } }, false],
    [{ matchLabels: { zone: 'a' } }, false],
    [{ matchExpressions: [{ key: 'app', operator: 'In', values: ['db', 'web'] }] }, true],
    [{ matchExpressions: [{ key: 'app', operator: 'In', values: ['db'] }] }, false],
    [{ matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['db'] }] }, true],
    [{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, false],
    [{ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }, { key: 'zone', operator: 'Exists' }] }, false],
    [{ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }, { key: 'zone', operator: 'DoesNotExist' }] }, true],
  ];
  for (const [selector, want] of cases) assert.equal(matchesLabelSelector(selector, labels), want, JSON.stringify(selector));
  assert.equal(matchesLabelSelector({ matchLabels: { app: 'web' } }, undefined), false);
  assert.equal(matchesLabelSelector({ matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }, undefined), true);
});
