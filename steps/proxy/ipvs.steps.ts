/**
 * Reading a node's IPVS state as `ipvsadm -Sn`, `ipset list` and `ip addr show kube-ipvs0` print it.
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { parseSave, proxy, proxyNode, synced } from './support.ts';

interface VirtualServer {
  line: string;
  scheduler: string;
  persistent?: number;
  reals: string[];
}

/** `-A -t 10.96.0.50:80 -s rr [-p 10800]` then `-a -t 10.96.0.50:80 -r 10.244.1.10:8080 -m -w 1` lines. */
function parseIpvsadm(text: string): Map<string, VirtualServer> {
  const out = new Map<string, VirtualServer>();
  const proto = (flag: string) => (flag === '-u' ? 'UDP' : flag === '-t' ? 'TCP' : 'SCTP');
  for (const line of text.split('\n')) {
    const t = line.split(/\s+/);
    if (t[0] === '-A') {
      const p = t.indexOf('-p');
      out.set(`${proto(t[1]!)} ${t[2]}`, { line, scheduler: t[t.indexOf('-s') + 1]!, ...(p >= 0 ? { persistent: Number(t[p + 1]) } : {}), reals: [] });
    } else if (t[0] === '-a') {
      out.get(`${proto(t[1]!)} ${t[2]}`)?.reals.push(t[t.indexOf('-r') + 1]!);
    }
  }
  return out;
}

async function virtualServers(world: KubespecWorld, node: string): Promise<Map<string, VirtualServer>> {
  return parseIpvsadm(await proxy(world).ipvsadmSave(node));
}

/** Waits (virtual or real time) until the virtual server satisfies `ok`. */
async function eventuallyVs(world: KubespecWorld, secs: number, key: string, what: string, ok: (vs: VirtualServer | undefined) => boolean): Promise<void> {
  let seen: VirtualServer | undefined;
  await world.eventually(`IPVS virtual server ${key} ${what} (last seen: ${JSON.stringify(seen)})`, async () => ok((seen = (await virtualServers(world, proxyNode(world))).get(key))), secs * 1000);
}

Then('within {int} seconds node {string} has an IPVS virtual server {string}', async function (this: KubespecWorld, secs: number, node: string, key: string) {
  await this.eventually(`virtual server ${key}`, async () => (await virtualServers(this, node)).has(key), secs * 1000);
});

Then('the dummy interface {string} of node {string} carries address {string}', async function (this: KubespecWorld, iface: string, node: string, ip: string) {
  assert.ok((await proxy(this).interfaceAddresses(node, iface)).includes(ip));
});

Then('within {int} seconds IPVS virtual server {string} has real servers {string}', async function (this: KubespecWorld, secs: number, key: string, list: string) {
  const want = list.split(/,\s*/).sort().join(', ');
  await eventuallyVs(this, secs, key, `has real servers ${want}`, (vs) => [...(vs?.reals ?? [])].sort().join(', ') === want);
});

Then('within {int} seconds IPVS virtual server {string} uses scheduler {string}', async function (this: KubespecWorld, secs: number, key: string, scheduler: string) {
  await eventuallyVs(this, secs, key, `uses ${scheduler}`, (vs) => vs?.scheduler === scheduler);
});

Then('within {int} seconds IPVS virtual server {string} is persistent with timeout {int} seconds', async function (this: KubespecWorld, secs: number, key: string, timeout: number) {
  await eventuallyVs(this, secs, key, `is persistent for ${timeout} s`, (vs) => vs?.persistent === timeout);
});

When('I count the nat rules and IPVS virtual servers of node {string}', async function (this: KubespecWorld, node: string) {
  await synced(this, node);
  this.note('ipvs counts', await ipvsCounts(this, node));
});

async function ipvsCounts(world: KubespecWorld, node: string) {
  const p = proxy(world);
  return {
    nat: parseSave(await p.iptablesSave(node, 'nat')).rules.length,
    vs: (await virtualServers(world, node)).size,
    clusterIPs: (await p.ipset(node, 'KUBE-CLUSTER-IP')).length,
  };
}

async function countsNow(world: KubespecWorld, node: string) {
  await synced(world, node);
  return { before: world.recall<Awaited<ReturnType<typeof ipvsCounts>>>('ipvs counts'), now: await ipvsCounts(world, node) };
}

Then('the nat rule count of node {string} is unchanged', async function (this: KubespecWorld, node: string) {
  const { before, now } = await countsNow(this, node);
  assert.equal(now.nat, before.nat);
});

Then('node {string} has {int} more IPVS virtual servers', async function (this: KubespecWorld, node: string, n: number) {
  const { before, now } = await countsNow(this, node);
  assert.equal(now.vs - before.vs, n);
});

Then('ipset {string} of node {string} has {int} more entries', async function (this: KubespecWorld, _set: string, node: string, n: number) {
  const { before, now } = await countsNow(this, node);
  assert.equal(now.clusterIPs - before.clusterIPs, n);
});

Then('within {int} seconds sysctl {string} of node {string} is {int}', async function (this: KubespecWorld, secs: number, name: string, node: string, value: number) {
  await this.eventually(`${name} = ${value}`, async () => (await proxy(this).sysctl(node, name)) === value, secs * 1000);
});

Then('within {int} seconds kube-proxy on node {string} has exited with an error mentioning {string}', async function (this: KubespecWorld, secs: number, node: string, word: string) {
  let last: { running: boolean; error?: string } = { running: true };
  await this.eventually(`kube-proxy on ${node} to exit (last: ${JSON.stringify(last)})`, async () => {
    last = await proxy(this).status(node);
    return !last.running && (last.error ?? '').toLowerCase().includes(word.toLowerCase());
  }, secs * 1000);
});
