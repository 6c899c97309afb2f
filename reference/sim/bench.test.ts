import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measureFailover } from './bench.ts';

test('failover after a leader crash typically takes one to three election timeouts of virtual time', async () => {
  const samples: number[] = [];
  for (let seed = 1; seed <= 41; seed++) {
    const { failover_ms, election_timeout_ms } = await measureFailover(seed);
    assert.equal(election_timeout_ms, 100);
    // The followers last heard the leader up to one heartbeat (20 ms) before it died.
    assert.ok(failover_ms >= election_timeout_ms - 20, `seed ${seed}: ${failover_ms} ms is faster than a timeout allows`);
    // Split votes between the two survivors cost extra rounds, but never many in a row.
    assert.ok(failover_ms <= 10 * election_timeout_ms, `seed ${seed}: ${failover_ms} ms`);
    samples.push(failover_ms);
  }
  samples.sort((a, b) => a - b);
  const median = samples[20] ?? 0;
  assert.ok(median >= 100 && median <= 300, `median ${median} ms`);
  console.log(`# failover_ms over 41 seeds: min ${samples[0]} median ${median} max ${samples[40]}`);
});

test('the same seed measures the same failover', async () => {
  assert.deepEqual(await measureFailover(99), await measureFailover(99));
});
