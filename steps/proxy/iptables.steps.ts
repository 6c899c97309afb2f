/**
 * Reading a node's iptables rules (`iptables-save -t nat|filter`) as an operator would: chains,
 * jumps, and rules matched option by option — iptables-save prints options in its own order and
 * probabilities with 11 decimals, so nothing here compares whole lines.
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { serviceChainName } from './chains.ts';
import {
  getService, hasOptions, jumpOf, likePattern, parseSave, proxy, proxyNode, serviceWithEndpoints, synced,
  type SavedRule,
} from './support.ts';

type Table = 'nat' | 'filter';

async function table(world: KubespecWorld, node: string, which: Table = 'nat') {
  return parseSave(await proxy(world).iptablesSave(node, which));
}

function show(rules: SavedRule[]): string {
  return rules.map((r) => r.line).join('\n') || '(no rules)';
}

/** Re-reads the table until `check` passes or the budget runs out; the last failure is the message. */
async function within(world: KubespecWorld, seconds: number, what: string, check: () => Promise<void>): Promise<void> {
  let last: unknown;
  try {
    await world.eventually(what, async () => {
      try {
        await check();
        return true;
      } catch (e) {
        last = e;
        return false;
      }
    }, seconds * 1000);
  } catch (timeout) {
    throw last instanceof Error ? last : timeout;
  }
}

async function checkHasRule(world: KubespecWorld, node: string, which: Table, wanted: string, chain?: string): Promise<SavedRule> {
  const { rules } = await table(world, node, which);
  const pool = chain ? rules.filter((r) => r.chain === chain) : rules;
  const hit = pool.find((r) => hasOptions(r, wanted));
  assert.ok(hit, `no ${which} rule${chain ? ` in ${chain}` : ''} with "${wanted}" on node "${node}":\n${show(pool)}`);
  return hit;
}

Then(/^(?:within (\d+) seconds )?the nat table of node "([^"]+)" has a rule "([^"]+)"$/, async function (this: KubespecWorld, secs: string | undefined, node: string, wanted: string) {
  if (!secs) await synced(this, node);
  await within(this, Number(secs ?? 0), `a nat rule "${wanted}"`, async () => void (await checkHasRule(this, node, 'nat', wanted)));
});

Then(/^within (\d+) seconds chain "([^"]+)" of the nat table of node "([^"]+)" has a rule matching "([^"]+)" that jumps to a chain named like "([^"]+)"$/, async function (this: KubespecWorld, secs: string, chain: string, node: string, wanted: string, like: string) {
  await within(this, Number(secs), `a rule in ${chain}`, async () => {
    const rule = await checkHasRule(this, node, 'nat', wanted, chain);
    assert.match(jumpOf(rule) ?? '', likePattern(like), rule.line);
    this.note('that chain', jumpOf(rule));
  });
});

Then(/^within (\d+) seconds chain "([^"]+)" of the nat table of node "([^"]+)" jumps to a chain named like "([^"]+)"$/, async function (this: KubespecWorld, secs: string, chain: string, node: string, like: string) {
  await within(this, Number(secs), `a jump from ${chain}`, async () => {
    const { rules } = await table(this, node);
    const hit = rules.find((r) => r.chain === chain && likePattern(like).test(jumpOf(r) ?? ''));
    assert.ok(hit, `${chain} has no jump to ${like}:\n${show(rules.filter((r) => r.chain === chain))}`);
    this.note('that chain', jumpOf(hit));
  });
});

Then('that KUBE-SVC chain is named after the hash of Service {string} port {string} and protocol {string}', function (this: KubespecWorld, service: string, port: string, protocol: string) {
  assert.equal(this.recall<string>('that chain'), serviceChainName('KUBE-SVC-', this.kube().namespace, service, port, protocol));
});

Then(/^that (KUBE-[A-Z]+) chain jumps to (?:exactly (\d+) chains?|a chain) named like "([^"]+)"$/, async function (this: KubespecWorld, _kind: string, count: string | undefined, like: string) {
  const chain = this.recall<string>('that chain');
  const { rules } = await table(this, proxyNode(this));
  const targets = [...new Set(rules.filter((r) => r.chain === chain).map(jumpOf).filter((j): j is string => !!j && likePattern(like).test(j)))];
  if (count) assert.equal(targets.length, Number(count), `${chain}:\n${show(rules.filter((r) => r.chain === chain))}`);
  else assert.ok(targets.length > 0, `${chain} jumps to no ${like}:\n${show(rules.filter((r) => r.chain === chain))}`);
  this.note('those chains', targets);
  this.note('that chain', targets[0]);
});

Then('one of those KUBE-SEP chains has a rule {string}', async function (this: KubespecWorld, wanted: string) {
  const { rules } = await table(this, proxyNode(this));
  const those = this.recall<string[]>('those chains');
  const owner = those.find((c) => rules.some((r) => r.chain === c && hasOptions(r, wanted)));
  assert.ok(owner, `none of ${those.join(', ')} has "${wanted}"`);
  this.note('the other chains', those.filter((c) => c !== owner));
});

Then('the other has a rule {string}', async function (this: KubespecWorld, wanted: string) {
  const { rules } = await table(this, proxyNode(this));
  const others = this.recall<string[]>('the other chains');
  assert.equal(others.length, 1);
  assert.ok(rules.some((r) => r.chain === others[0] && hasOptions(r, wanted)), `${others[0]} has no "${wanted}"`);
});

Then('chains {names} of the nat table of node {string} jump to {string}', async function (this: KubespecWorld, chains: string[], node: string, target: string) {
  const { rules } = await table(this, node);
  for (const c of chains) assert.ok(rules.some((r) => r.chain === c && jumpOf(r) === target), `${c} does not jump to ${target}`);
});

Then(/^the (?:iptables )?nat table of node "([^"]+)" has no chain named like "([^"]+)"$/, async function (this: KubespecWorld, node: string, like: string) {
  if ((await proxy(this).status(node)).running) await synced(this, node);
  const { chains } = await table(this, node);
  const found = chains.filter((c) => likePattern(like).test(c));
  assert.deepEqual(found, [], `node "${node}" has ${found.join(', ')}`);
});

// ---- the chains themselves ------------------------------------------------------------------

Then('the {word} table of node {string} declares the built-in chains {names} and kube-proxy\'s own chains {names}', async function (this: KubespecWorld, which: Table, node: string, builtins: string[], own: string[]) {
  await synced(this, node);
  const { policies } = await table(this, node, which);
  const headers = [...policies].map(([c, p]) => `:${c} ${p}`).join('\n');
  // A built-in chain has a policy (what the hook does with a packet no rule took); a created one has "-".
  for (const c of builtins) assert.match(policies.get(c) ?? 'missing', /^(ACCEPT|DROP)$/, `${which} ${c}:\n${headers}`);
  for (const c of own) assert.equal(policies.get(c), '-', `${which} ${c}:\n${headers}`);
});

Then('every chain a rule of the nat or filter table of node {string} jumps to is declared in its table', async function (this: KubespecWorld, node: string) {
  for (const which of ['nat', 'filter'] as const) {
    const { rules, policies } = await table(this, node, which);
    // kube-proxy's chains are all KUBE-*; the kernel's targets (DNAT, MARK, REJECT, …) are not chains.
    const undeclared = rules.filter((r) => /^KUBE-/.test(jumpOf(r) ?? '') && !policies.has(jumpOf(r)!));
    assert.deepEqual(undeclared.map((r) => r.line), [], `${which}: jumps to chains the table does not declare`);
  }
});

// ---- one Service's chains ------------------------------------------------------------------

/** The chain KUBE-SERVICES sends the Service's ClusterIP:port to. */
async function serviceChain(world: KubespecWorld, service: string): Promise<{ chain: string; rules: SavedRule[]; chains: string[] }> {
  await synced(world);
  const svc = await getService(world, service);
  const { rules, chains } = await table(world, proxyNode(world));
  const entry = rules.find((r) => r.chain === 'KUBE-SERVICES' && hasOptions(r, `-d ${svc.spec.clusterIP}/32 --dport ${svc.spec.ports[0].port}`));
  assert.ok(entry, `KUBE-SERVICES has no rule for ${svc.spec.clusterIP}:${svc.spec.ports[0].port}:\n${show(rules.filter((r) => r.chain === 'KUBE-SERVICES'))}`);
  return { chain: jumpOf(entry)!, rules, chains };
}

const sepJumps = (rules: SavedRule[], chain: string) => rules.filter((r) => r.chain === chain && /^KUBE-SEP-/.test(jumpOf(r) ?? ''));

Then('the KUBE-SVC chain of Service {string} has {int} jump rules to KUBE-SEP chains', async function (this: KubespecWorld, service: string, n: number) {
  const { chain, rules } = await serviceChain(this, service);
  assert.equal(sepJumps(rules, chain).length, n, show(rules.filter((r) => r.chain === chain)));
});

Then('there are {int} KUBE-SEP chains for Service {string}', async function (this: KubespecWorld, n: number, service: string) {
  const { rules, chains } = await serviceChain(this, service);
  const mine = `${this.kube().namespace}/${service}`;
  const seps = chains.filter((c) => c.startsWith('KUBE-SEP-') && rules.some((r) => r.chain === c && r.tokens.includes(mine)));
  assert.equal(seps.length, n, seps.join(', '));
});

/** "probability 1/3", "no statistic match". */
function expectJump(rule: SavedRule, what: string): void {
  const m = /^probability (\d+)\/(\d+)$/.exec(what);
  const i = rule.tokens.indexOf('--probability');
  if (!m) return assert.equal(i, -1, `expected no statistic match: ${rule.line}`);
  assert.ok(i >= 0, `expected a probability: ${rule.line}`);
  const p = Number(rule.tokens[i + 1]);
  // xt_statistic keeps 31 bits: iptables-save reads 0.3333333333 back as 0.33333333349.
  assert.ok(Math.abs(p - Number(m[1]) / Number(m[2])) < 1e-9, `probability ${p} is not ${what}: ${rule.line}`);
}

Then(/^the KUBE-SVC chain of Service "([^"]+)" has, in order, jumps with (.+)$/, async function (this: KubespecWorld, service: string, list: string) {
  const { chain, rules } = await serviceChain(this, service);
  const expected = list.split(/, | and /);
  const jumps = sepJumps(rules, chain);
  assert.equal(jumps.length, expected.length, show(jumps));
  jumps.forEach((r, k) => expectJump(r, expected[k]!));
});

Then('the KUBE-SVC chain of Service {string} has {int} rules with options {string} naming a KUBE-SEP chain', async function (this: KubespecWorld, service: string, n: number, options: string) {
  const { chain, rules } = await serviceChain(this, service);
  const hits = rules.filter((r) => r.chain === chain && hasOptions(r, options) && /^KUBE-SEP-/.test(r.tokens[r.tokens.indexOf('--name') + 1] ?? ''));
  assert.equal(hits.length, n, show(rules.filter((r) => r.chain === chain)));
});

Then('each KUBE-SEP chain of Service {string} has a rule with options {string} naming its own chain', async function (this: KubespecWorld, service: string, options: string) {
  const { chain, rules } = await serviceChain(this, service);
  const seps = [...new Set(sepJumps(rules, chain).map((r) => jumpOf(r)!))];
  assert.ok(seps.length > 0);
  for (const sep of seps) assert.ok(rules.some((r) => r.chain === sep && hasOptions(r, `${options} --name ${sep}`)), `${sep} has no "${options} --name ${sep}":\n${show(rules.filter((r) => r.chain === sep))}`);
});

// ---- counting ------------------------------------------------------------------------------

async function natCount(world: KubespecWorld, chain?: string): Promise<number> {
  await synced(world);
  const { rules } = await table(world, proxyNode(world));
  return chain ? rules.filter((r) => r.chain === chain).length : rules.length;
}

When(/^I create Services "s1" to "s(\d+)", each with (\d+) ready endpoints, and count the nat rules after each$/, async function (this: KubespecWorld, last: string, per: string) {
  const counts = [await natCount(this)];
  this.note('KUBE-SERVICES before', await natCount(this, 'KUBE-SERVICES'));
  for (let i = 1; i <= Number(last); i++) {
    await serviceWithEndpoints(this, `s${i}`, Number(per));
    counts.push(await natCount(this));
  }
  this.note('nat counts', counts);
});

Then('the three increments in nat rule count are equal and greater than 0', function (this: KubespecWorld) {
  const c = this.recall<number[]>('nat counts');
  const inc = c.slice(1).map((n, i) => n - c[i]!);
  assert.equal(inc.length, 3);
  assert.ok(inc.every((d) => d === inc[0] && d > 0), `increments ${inc.join(', ')} (counts ${c.join(', ')})`);
});

Then('chain {string} has {int} more rules than before the Services existed', async function (this: KubespecWorld, chain: string, n: number) {
  assert.equal((await natCount(this, chain)) - this.recall<number>('KUBE-SERVICES before'), n);
});

Then('chain {string} of the nat table of node {string} has a ClusterIP rule for each of the {int} Services', async function (this: KubespecWorld, chain: string, node: string, n: number) {
  const names = this.recall<string[]>('bulk services');
  assert.equal(names.length, n);
  await synced(this, node);
  const { rules } = await table(this, node);
  const inChain = rules.filter((r) => r.chain === chain);
  for (const name of names) {
    const ip = (await getService(this, name)).spec.clusterIP;
    assert.equal(inChain.filter((r) => hasOptions(r, `-d ${ip}/32`)).length, 1, `Service ${name} (${ip})`);
  }
});

// ---- filter table, and what kube-proxy never does ------------------------------------------

Then('within {int} seconds chain {string} of the filter table of node {string} has a rule rejecting the clusterIP of Service {string} port {int}', async function (this: KubespecWorld, secs: number, chain: string, node: string, service: string, port: number) {
  const ip = (await getService(this, service)).spec.clusterIP;
  await within(this, secs, 'a REJECT rule', async () => void (await checkHasRule(this, node, 'filter', `-d ${ip}/32 -p tcp --dport ${port} -j REJECT`, chain)));
});

Then('chain {string} of the filter table of node {string} has a rule with options {string}', async function (this: KubespecWorld, chain: string, node: string, wanted: string) {
  await synced(this, node);
  await checkHasRule(this, node, 'filter', wanted, chain);
});

Then('no rule in the nat or filter table of node {string} matches {string} as destination address', async function (this: KubespecWorld, node: string, ip: string) {
  for (const which of ['nat', 'filter'] as const) {
    const { rules } = await table(this, node, which);
    const hits = rules.filter((r) => hasOptions(r, `-d ${ip}/32`) || hasOptions(r, `-d ${ip}`));
    assert.deepEqual(hits.map((r) => r.line), []);
  }
});

Then('no nat rule of node {string} redirects to a local port', async function (this: KubespecWorld, node: string) {
  const { rules } = await table(this, node);
  const node_ip = await proxy(this).nodeAddress(node);
  const local = rules.filter((r) => jumpOf(r) === 'REDIRECT' || r.tokens.some((t) => t.startsWith('127.') || t.startsWith(`${node_ip}:`)));
  assert.deepEqual(local.map((r) => r.line), []);
});
