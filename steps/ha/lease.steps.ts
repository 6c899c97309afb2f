/**
 * Leader election through Leases (LEASE-*): control-plane processes campaign for
 * kube-system/<component>; the steps read the Lease through the API and ask each process
 * whether it leads (its leader_election_master_status).
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubeWatch } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { COMPONENT, componentOf, componentOfLease, getLease, holderName, leasePath, ms } from './support.ts';

Given(new RegExp(`^an HA cluster with ${COMPONENT} (.+) starting at the same time$`), async function (this: KubespecWorld, words: string, names: string) {
  const list = [...names.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
  await this.ha().start(componentOf(words), list);
  this.note('instances', list);
});

/** Start the named leader alone, wait until it leads, then the standbys; watch the Lease from then on. */
Given(/^an HA cluster where (controller manager|scheduler|cloud-controller-manager instance) "([^"]*)" holds lease "([^"]*)"(?: and (.+) (?:are|is) standing by)?$/, async function (this: KubespecWorld, words: string, leader: string, ref: string, standbys?: string) {
  const component = componentOf(words);
  assert.equal(component, componentOfLease(ref), `lease ${ref} is not ${component}'s`);
  await this.ha().start(component, [leader]);
  await this.eventually(`${leader} leads`, async () => (await this.ha().process(component, leader)).leading, 10_000);
  const others = standbys ? [...standbys.matchAll(/"([^"]*)"/g)].map((m) => m[1]!) : [];
  if (others.length > 0) await this.ha().start(component, others);
  this.note('instances', [leader, ...others]);
  const lease = await getLease(this.kube(), ref);
  this.note('lease at start', lease);
  const watch = await this.kube().watch(`${leasePath(ref).replace(/\/[^/]+$/, '')}?watch=true&resourceVersion=${lease.metadata.resourceVersion}`);
  this.onCleanup(() => watch.close());
  this.note('lease watch', { watch, name: ref.split('/')[1] });
});

When(/^(controller manager|scheduler|cloud-controller-manager instance) "([^"]*)" (freezes|is killed|loses its connection to the API server)( right after renewing)?$/, async function (this: KubespecWorld, words: string, name: string, what: string, afterRenewing?: string) {
  const component = componentOf(words);
  const ha = this.ha();
  if (afterRenewing) {
    const ref = `kube-system/${component}`;
    const before = (await getLease(this.kube(), ref)).spec.renewTime;
    await this.eventually(`a renewal of lease ${ref}`, async () => (await getLease(this.kube(), ref)).spec.renewTime !== before, 5_000);
  }
  if (what === 'freezes') await ha.freeze(component, name);
  else if (what === 'is killed') await ha.kill(component, name);
  else await ha.disconnect(component, name);
  this.note('fault at', this.clock().now_ms());
});

Then(/^lease "([^"]*)" has a holderIdentity naming exactly one of (.+)$/, async function (this: KubespecWorld, ref: string, names: string) {
  const list = [...names.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
  const holder = await holderName(this, ref, list);
  const lease = await getLease(this.kube(), ref);
  assert.ok(holder, `lease ${ref} is held by "${lease.spec?.holderIdentity}", none of ${list.join(', ')}`);
  this.note('holder', holder);
  this.note('lease ref', ref);
});

Then(/^(?:lease "([^"]*)"|that lease) has spec\.leaseDurationSeconds (\d+)$/, async function (this: KubespecWorld, ref: string | undefined, seconds: string) {
  const lease = await getLease(this.kube(), ref ?? this.recall<string>('lease ref'));
  assert.equal(lease.spec?.leaseDurationSeconds, Number(seconds));
});

Then(/^exactly one (controller manager|scheduler|cloud-controller-manager) instance reports itself leader, the one the lease names$/, async function (this: KubespecWorld, words: string) {
  const component = componentOf(words.endsWith('instance') ? words : `${words}s`);
  const leaders: string[] = [];
  for (const name of this.recall<string[]>('instances')) if ((await this.ha().process(component, name)).leading) leaders.push(name);
  assert.deepEqual(leaders, [this.recall<string>('holder')], `instances reporting themselves leader: ${JSON.stringify(leaders)}`);
  for (const name of this.recall<string[]>('instances')) assert.ok((await this.ha().process(component, name)).alive, `${name} is not running`);
});

Then(/^lease "([^"]*)" (?:still )?has holderIdentity naming "([^"]*)"(?: or "([^"]*)")?$/, async function (this: KubespecWorld, ref: string, a: string, b?: string) {
  const names = b ? [a, b] : [a];
  const holder = await holderName(this, ref, names);
  const lease = await getLease(this.kube(), ref);
  assert.ok(holder, `lease ${ref} is held by "${lease.spec?.holderIdentity}", not by ${names.join(' or ')} (${sinceFault(this)})`);
  this.note('lease now', lease);
});

Then('its spec.leaseTransitions did not change', async function (this: KubespecWorld) {
  const before = this.recall<any>('lease at start');
  const now = this.recall<any>('lease now');
  assert.equal(now.spec.leaseTransitions ?? 0, before.spec.leaseTransitions ?? 0);
});

Then('its spec.leaseTransitions increased by {int}', async function (this: KubespecWorld, n: number) {
  const before = this.recall<any>('lease at start');
  const now = this.recall<any>('lease now');
  assert.equal((now.spec.leaseTransitions ?? 0) - (before.spec.leaseTransitions ?? 0), n);
});

Then(/^its spec\.renewTime was updated at least (\d+) times, never more than (\d+) seconds apart$/, async function (this: KubespecWorld, times: string, seconds: string) {
  const { watch, name } = this.recall<{ watch: KubeWatch; name: string }>('lease watch');
  const renewals = watch.events.filter((e) => e.type === 'MODIFIED' && e.object?.metadata?.name === name).map((e) => ms(e.object.spec.renewTime));
  assert.ok(renewals.length >= Number(times), `${renewals.length} renewals seen`);
  const start = ms(this.recall<any>('lease at start').spec.renewTime);
  const gaps = [start, ...renewals].slice(1).map((t, i) => t - [start, ...renewals][i]!);
  assert.ok(gaps.every((g) => g > 0 && g <= Number(seconds) * 1000), `renewal gaps (ms): ${gaps.join(', ')}`);
});

/** LEASE-EXPIRY-TAKEOVER: the new holder's acquireTime against the old holder's last renewTime. */
Then(/^the takeover's spec\.acquireTime is between (\d+) and (\d+) seconds after the last renewTime of "([^"]*)"$/, async function (this: KubespecWorld, lo: string, hi: string, old: string) {
  const { watch, name } = this.recall<{ watch: KubeWatch; name: string }>('lease watch');
  const versions = [this.recall<any>('lease at start'), ...watch.events.filter((e) => e.object?.metadata?.name === name).map((e) => e.object)];
  const oldIdentity = versions[0].spec.holderIdentity;
  assert.ok(oldIdentity.startsWith(`${old}_`) || oldIdentity === old, `the lease was not ${old}'s at the start: ${oldIdentity}`);
  const lastOld = versions.filter((l) => l.spec.holderIdentity === oldIdentity).at(-1);
  const taken = versions.find((l) => l.spec.holderIdentity !== oldIdentity);
  assert.ok(taken, 'nobody took the lease over');
  const gap_ms = ms(taken.spec.acquireTime) - ms(lastOld.spec.renewTime);
  assert.ok(gap_ms >= Number(lo) * 1000 && gap_ms <= Number(hi) * 1000, `taken over ${gap_ms} ms after the last renewal (want ${lo}–${hi} s)`);
});

Then(/^(controller manager|scheduler|cloud-controller-manager instance) "([^"]*)" (still reports|no longer reports) itself leader$/, async function (this: KubespecWorld, words: string, name: string, still: string) {
  const p = await this.ha().process(componentOf(words), name);
  assert.equal(p.leading, still === 'still reports', `${name} leading: ${p.leading}, ${sinceFault(this)}`);
});

function sinceFault(world: KubespecWorld): string {
  try {
    return `${world.clock().now_ms() - world.recall<number>('fault at')} ms after the fault`;
  } catch {
    return 'no fault injected';
  }
}

When(/^(controller manager|scheduler|cloud-controller-manager instance) "([^"]*)" starts$/, async function (this: KubespecWorld, words: string, name: string) {
  await this.ha().start(componentOf(words), [name]);
});

// ---- Lease semantics through the API alone (any cluster) ----------------------------------------

When('candidate {string} creates Lease {string} in the scenario\'s namespace naming itself, for {int} seconds', async function (this: KubespecWorld, who: string, name: string, seconds: number) {
  const now = new Date().toISOString().replace('Z', '000Z');
  const res = await this.kube().request({
    method: 'POST',
    path: `/apis/coordination.k8s.io/v1/namespaces/${this.kube().namespace}/leases`,
    body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: who, leaseDurationSeconds: seconds, acquireTime: now, renewTime: now, leaseTransitions: 0 } },
  });
  assert.equal(res.status, 201, res.text.slice(0, 300));
});

When('candidates {string} and {string} both read Lease {string}', async function (this: KubespecWorld, a: string, b: string, name: string) {
  const path = `/apis/coordination.k8s.io/v1/namespaces/${this.kube().namespace}/leases/${name}`;
  for (const who of [a, b]) this.note(`lease read by ${who}`, (await this.kube().request({ method: 'GET', path })).json);
});

When(/^candidate "([^"]*)" updates it to name itself( with the resourceVersion it read)?$/, async function (this: KubespecWorld, who: string, _stale?: string) {
  const read = this.recall<any>(`lease read by ${who}`);
  const path = `/apis/coordination.k8s.io/v1/namespaces/${this.kube().namespace}/leases/${read.metadata.name}`;
  const next = { ...read, spec: { ...read.spec, holderIdentity: who, leaseTransitions: (read.spec.leaseTransitions ?? 0) + 1 } };
  this.note(`update by ${who}`, await this.kube().request({ method: 'PUT', path, body: next }));
});

Then('the update by {string} succeeds and the update by {string} is refused with {int} {word}', function (this: KubespecWorld, winner: string, loser: string, code: number, reason: string) {
  const won = this.recall<any>(`update by ${winner}`);
  const lost = this.recall<any>(`update by ${loser}`);
  assert.equal(won.status, 200, won.text.slice(0, 300));
  assert.equal(lost.status, code, lost.text.slice(0, 300));
  assert.equal(lost.json?.reason, reason);
});

Then('Lease {string} names {string} as its holder', async function (this: KubespecWorld, name: string, who: string) {
  const res = await this.kube().request({ method: 'GET', path: `/apis/coordination.k8s.io/v1/namespaces/${this.kube().namespace}/leases/${name}` });
  assert.equal(res.json?.spec?.holderIdentity, who);
});

// ---- who does the work ------------------------------------------------------------------------

When('I create namespaces {names}', async function (this: KubespecWorld, names: string[]) {
  for (const name of names) {
    const res = await this.kube().request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
    assert.equal(res.status, 201, res.text.slice(0, 300));
    this.onCleanup(() => this.kube().request({ method: 'DELETE', path: `/api/v1/namespaces/${name}` }));
  }
});

Then('within {int} seconds each of namespaces {names} has ServiceAccount {string}', async function (this: KubespecWorld, seconds: number, names: string[], sa: string) {
  for (const ns of names) {
    await this.eventually(`ServiceAccount ${ns}/${sa}`, async () => (await this.kube().request({ method: 'GET', path: `/api/v1/namespaces/${ns}/serviceaccounts/${sa}` })).status === 200, seconds * 1000);
  }
});

Then(/^only the (controller manager|scheduler|cloud-controller-manager) named in lease "([^"]*)" made API writes besides leader election(?:, among (.+))?$/, async function (this: KubespecWorld, words: string, ref: string, among?: string) {
  const component = componentOf(words === 'cloud-controller-manager' ? 'cloud-controller-manager instances' : `${words}s`);
  const names = among ? [...among.matchAll(/"([^"]*)"/g)].map((m) => m[1]!) : this.recall<string[]>('instances');
  const holder = await holderName(this, ref, names);
  assert.ok(holder, `lease ${ref} names none of ${names.join(', ')}`);
  const writes: Record<string, number> = {};
  for (const name of names) writes[name] = (await this.ha().process(component, name)).writes;
  assert.ok(writes[holder]! > 0, `the leader ${holder} made no writes: ${JSON.stringify(writes)}`);
  for (const name of names) if (name !== holder) assert.equal(writes[name], 0, `standby ${name} wrote: ${JSON.stringify(writes)}`);
});
