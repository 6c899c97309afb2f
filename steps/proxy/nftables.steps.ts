/**
 * Reading a node's `nft list table ip kube-proxy`: maps with their elements, chains with their rules.
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { getService, proxy, proxyNode, synced } from './support.ts';

interface NftTable {
  maps: Map<string, Map<string, string>>;
  chains: Map<string, string[]>;
}

/** Blocks `map NAME { … }` and `chain NAME { … }` at one tab of indentation, as nft prints them. */
export function parseNft(text: string): NftTable {
  const maps = new Map<string, Map<string, string>>();
  const chains = new Map<string, string[]>();
  const blocks = text.split(/\n\t(?=map |chain |set )/).slice(1);
  for (const block of blocks) {
    const [head, ...body] = block.split('\n');
    const [kind, name] = head!.trim().split(/\s+/);
    const lines = body.map((l) => l.trim()).filter((l) => l && l !== '}');
    if (kind === 'map') {
      const els = lines.join(' ').match(/elements = \{(.*)\}/)?.[1] ?? '';
      maps.set(name!, new Map(els.split(',').map((e) => e.trim()).filter(Boolean).map((e) => {
        const [k, v] = e.split(' : ');
        return [k!.trim(), (v ?? '').trim()];
      })));
    } else if (kind === 'chain') {
      chains.set(name!, lines.filter((l) => !/^type .* hook /.test(l)));
    }
  }
  return { maps, chains };
}

async function nft(world: KubespecWorld, node = proxyNode(world)): Promise<NftTable> {
  return parseNft(await proxy(world).nftList(node));
}

Then('within {int} seconds node {string} has nft table {string}', async function (this: KubespecWorld, secs: number, node: string, name: string) {
  await this.eventually(`nft table ${name}`, async () => (await proxy(this).nftList(node)).startsWith(`table ${name} {`), secs * 1000);
});

Then('map {string} of that table has an element for {string}', async function (this: KubespecWorld, map: string, key: string) {
  let seen: string[] = [];
  await this.eventually(`an element ${key} in ${map} (seen ${seen.join('; ')})`, async () => {
    seen = [...((await nft(this)).maps.get(map)?.keys() ?? [])];
    return seen.includes(key);
  }, 10_000);
});

When('I count the rules of chain {string} and the elements of map {string} in table {string} of node {string}', async function (this: KubespecWorld, chain: string, map: string, _table: string, node: string) {
  await synced(this, node);
  const t = await nft(this, node);
  this.note('nft counts', { rules: t.chains.get(chain)?.length ?? 0, elements: t.maps.get(map)?.size ?? 0 });
});

async function nftNow(world: KubespecWorld) {
  await synced(world);
  return { before: world.recall<{ rules: number; elements: number }>('nft counts'), now: await nft(world) };
}

Then('chain {string} has the same number of rules', async function (this: KubespecWorld, chain: string) {
  const { before, now } = await nftNow(this);
  assert.equal(now.chains.get(chain)?.length ?? 0, before.rules);
});

Then('map {string} has {int} more elements', async function (this: KubespecWorld, map: string, n: number) {
  const { before, now } = await nftNow(this);
  assert.equal((now.maps.get(map)?.size ?? 0) - before.elements, n);
});

Then('the service chain of Service {string} in table {string} has a rule with {string} listing {int} endpoint chains', async function (this: KubespecWorld, service: string, _table: string, text: string, n: number) {
  await synced(this);
  const svc = await getService(this, service);
  const t = await nft(this);
  const verdict = t.maps.get('service-ips')?.get(`${svc.spec.clusterIP} . tcp . ${svc.spec.ports[0].port}`);
  assert.ok(verdict, `no service-ips element for ${svc.spec.clusterIP}`);
  const chain = verdict.replace(/^goto /, '');
  const rule = (t.chains.get(chain) ?? []).find((r) => r.includes(text));
  assert.ok(rule, `${chain} has no rule with "${text}": ${(t.chains.get(chain) ?? []).join(' | ')}`);
  // nft prints the vmap as "{ 0 : goto endpoint-…, 1 : goto … }": a chain name ends before "," or "}".
  const targets = [...rule.matchAll(/goto (endpoint-[^\s,}]+)/g)].map((m) => m[1]!);
  assert.equal(new Set(targets).size, n, rule);
  for (const target of targets) assert.ok(t.chains.has(target), `no chain ${target}`);
});
