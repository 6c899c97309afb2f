import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeZoneState, handleDisruption, zoneKey, zoneRate, type ZoneState } from './zones.ts';

const statuses = (ready: number, notReady: number, missing = 0) => [...Array(ready).fill('True'), ...Array(notReady).fill('Unknown'), ...Array(missing).fill(undefined)];

test('a zone with no Ready node is FullDisruption, even of one node', () => {
  assert.equal(computeZoneState(statuses(0, 1)).state, 'FullDisruption');
  assert.equal(computeZoneState(statuses(0, 0, 2)).state, 'FullDisruption', 'a node without a Ready condition counts as not Ready');
});

test('PartialDisruption needs more than 2 not-Ready nodes and at least 55 % of the zone', () => {
  assert.equal(computeZoneState(statuses(1, 2)).state, 'Normal', '2 of 3 down: too few to call the zone disrupted');
  assert.equal(computeZoneState(statuses(2, 3)).state, 'PartialDisruption', '3 of 5 = 60 %');
  assert.equal(computeZoneState(statuses(3, 3)).state, 'Normal', '3 of 6 = 50 %');
  assert.equal(computeZoneState(statuses(9, 11)).state, 'PartialDisruption', '11 of 20 = 55 % exactly');
});

test('an empty zone and a healthy zone are Normal', () => {
  assert.equal(computeZoneState([]).state, 'Normal');
  assert.equal(computeZoneState(statuses(5, 0)).state, 'Normal');
});

test('rates: Normal and FullDisruption 0.1/s; PartialDisruption 0.01/s above 50 nodes, else stopped', () => {
  assert.equal(zoneRate('Normal', 3), 0.1);
  assert.equal(zoneRate('FullDisruption', 1), 0.1);
  assert.equal(zoneRate('PartialDisruption', 50), 0);
  assert.equal(zoneRate('PartialDisruption', 51), 0.01);
});

test('one zone wholly down while another is healthy keeps its normal rate; every zone down is master disruption: all rates 0', () => {
  const zones = new Map([['a', statuses(0, 2)], ['b', statuses(3, 0)]]);
  const one = handleDisruption(new Map(), zones);
  assert.deepEqual([...one.rates], [['a', 0.1], ['b', 0.1]]);
  assert.equal(one.masterDisruption, false);
  const allDown = new Map([['a', statuses(0, 2)], ['b', statuses(0, 3)]]);
  const both = handleDisruption(one.states, allDown);
  assert.deepEqual([...both.rates], [['a', 0], ['b', 0]]);
  assert.deepEqual([both.masterDisruption, both.entered], [true, true]);
  const still = handleDisruption(both.states, allDown);
  assert.deepEqual([still.masterDisruption, still.entered], [true, false], 'entered once: the taints come off on entry');
  const back = handleDisruption(still.states, zones);
  assert.deepEqual([...back.rates], [['a', 0.1], ['b', 0.1]]);
  assert.equal(back.masterDisruption, false);
});

test('a one-node cluster whose node is down is in master disruption: no NoExecute tainting', () => {
  const view = handleDisruption(new Map<string, ZoneState>([['', 'Normal']]), new Map([['', statuses(0, 1)]]));
  assert.deepEqual([view.states.get(''), view.rates.get(''), view.masterDisruption], ['FullDisruption', 0, true]);
});

test('zone keys join region and zone; a node without either label is in the zone ""', () => {
  assert.equal(zoneKey({ 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'z' }), 'r:\x00:z');
  assert.equal(zoneKey({ 'failure-domain.beta.kubernetes.io/zone': 'z' }), ':\x00:z');
  assert.equal(zoneKey({}), '');
});
