/**
 * kube-proxy's rules in a real kernel: the reference proxy's iptables and nftables output is
 * loaded with the real `iptables-restore` and `nft -f` into a network namespace this test makes,
 * and real TCP/HTTP connections from an "outside" namespace reach real backend servers in their
 * own namespaces through it — counted per backend: spread, keep-alive (conntrack), ClientIP
 * affinity, REJECT without endpoints, externalTrafficPolicy Local (the client's address kept).
 *
 * Needs root, iproute2, iptables and nftables (CI runs as root and installs them); elsewhere the
 * tests are skipped with the reason printed. IPVS is not in this kernel (no ip_vs): its rules are
 * checked only in the reference's model, and this file says so. Every namespace, veth and rule
 * is removed afterwards, also when a test fails (deleting the namespaces removes the rest).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildState } from '../reference/proxy/model.ts';
import { iptablesRules } from '../reference/proxy/iptables/proxier.ts';
import { renderTable } from '../reference/proxy/iptables/rules.ts';
import { NftablesProxier } from '../reference/proxy/nftables/proxier.ts';
import { service, slice } from '../reference/proxy/testing.ts';
import { KernelNetwork, NODE_IP, CLIENT_IP, kernelSupport } from '../reference/proxy/host/netns.ts';

const support = kernelSupport();
const skip = support.ok ? false : `real-kernel proxy tests skipped: ${support.reason}`;
if (skip) console.log(`# ${skip}`);
console.log('# proxy.ipvs: not applicable on this kernel (no ip_vs module); IPVS mode is checked in the reference model only');

/** The cluster the node sees: four Services over three backends a, b, c on port 8080. */
function clusterState(net: KernelNetwork) {
  const [a, b, c] = net.backends.map((x) => ({ ip: x.ip }));
  const services = [
    service({ name: 'web', clusterIP: '10.96.0.50', type: 'NodePort', nodePort: 30080 }),
    service({ name: 'sticky', clusterIP: '10.96.0.51', affinityTimeout: 10800 }),
    service({ name: 'empty', clusterIP: '10.96.0.52', type: 'NodePort', nodePort: 30082 }),
    service({ name: 'local', clusterIP: '10.96.0.53', type: 'NodePort', nodePort: 30083, externalLocal: true }),
  ];
  const slices = [
    slice('web', 8080, [a!, b!, c!]),
    slice('sticky', 8080, [a!, b!, c!]),
    slice('local', 8080, [{ ...a!, node: 'node' }, { ...b!, node: 'elsewhere' }]),
  ];
  return buildState(services, slices, 'node', [NODE_IP]);
}

function tally(answers: string[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const a of answers) {
    const who = a.split(' ')[0]!;
    t[who] = (t[who] ?? 0) + 1;
  }
  return t;
}

let run = 0;

/** The same checks for each mode: only how the rules are loaded differs. */
function kernelSuite(mode: 'iptables' | 'nftables', load: (net: KernelNetwork) => void): void {
  describe(`${mode} rules in a real kernel`, { skip, concurrency: false }, () => {
    let net: KernelNetwork;
    before(async () => {
      KernelNetwork.sweep();
      net = new KernelNetwork(`ks-px${process.pid}-${run++}`, ['a', 'b', 'c']);
      try {
        net.up();
        load(net);
        await net.startServers(8080);
      } catch (e) {
        net.close();
        throw e;
      }
    });
    after(() => net?.close());

    test('new connections to ClusterIP:port spread over every backend', () => {
      const t = tally(net.requests('10.96.0.50', 80, 300));
      assert.deepEqual(Object.keys(t).sort(), ['a', 'b', 'c'], JSON.stringify(t));
      for (const n of Object.values(t)) assert.ok(n >= 60 && n <= 140, `uneven spread ${JSON.stringify(t)}`);
    });

    test('the NodePort on the node address reaches the same backends', () => {
      const t = tally(net.requests(NODE_IP, 30080, 60));
      assert.ok(Object.keys(t).every((k) => ['a', 'b', 'c'].includes(k)) && Object.keys(t).length >= 2, JSON.stringify(t));
    });

    test('requests on one keep-alive connection stay on one backend (conntrack)', () => {
      const answers = net.requests('10.96.0.50', 80, 50, { keepAlive: true });
      assert.equal(Object.keys(tally(answers)).length, 1, JSON.stringify(tally(answers)));
    });

    test('ClientIP affinity keeps one client on one backend across new connections', () => {
      const t = tally(net.requests('10.96.0.51', 80, 40));
      assert.equal(Object.keys(t).length, 1, JSON.stringify(t));
    });

    test('a Service without endpoints is refused at once, on the ClusterIP and the NodePort', () => {
      assert.deepEqual(net.requests('10.96.0.52', 80, 3), ['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED']);
      assert.deepEqual(net.requests(NODE_IP, 30082, 2), ['ECONNREFUSED', 'ECONNREFUSED']);
    });

    test('externalTrafficPolicy Local: outside clients reach only the local backend and keep their address', () => {
      const answers = net.requests(NODE_IP, 30083, 40);
      assert.deepEqual(tally(answers), { a: 40 });
      assert.ok(answers.every((a) => a.endsWith(CLIENT_IP)), answers[0]);
    });

    test('traffic to a ClusterIP is masqueraded when it comes from outside the pod network', () => {
      const [answer] = net.requests('10.96.0.50', 80, 1);
      assert.doesNotMatch(answer!, new RegExp(`${CLIENT_IP}$`));
    });
  });
}

kernelSuite('iptables', (net) => {
  const rules = iptablesRules(clusterState(net));
  net.iptablesRestore(renderTable(rules.nat) + renderTable(rules.filter));
});

kernelSuite('nftables', (net) => {
  const proxier = new NftablesProxier({ clusterCIDR: '10.244.0.0/16' });
  net.nft(`${proxier.sync(clusterState(net)).join('\n')}\n`);
});
