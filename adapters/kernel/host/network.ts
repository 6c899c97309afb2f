/**
 * A small cluster network in the real kernel, for the kernel target (root only). Each piece is a
 * network namespace whose name starts with the network's prefix (`ksk<pid>x<n>-`), so two runs
 * never collide and a killed run's leftovers can be found by its dead pid:
 *
 *   <p>-net            a bridge, the nodes' L2 network 172.18.0.0/24 (the "machine room")
 *   <p>-out            the world outside the cluster: 172.18.0.254 on the bridge, and every
 *                      address of 203.0.0.0/16 as its own (a `local` route), so each made-up
 *                      outside client has its own source address
 *   <p>-n<k>           node k: its address on the bridge (the one kube-proxy is told), and a
 *                      second one its own processes use (processAddress), ip_forward on,
 *                      kube-proxy's rules loaded here (iptables-restore / nft -f)
 *   <p>-n<k>p          node k's pods: every endpoint address the node hosts on one veth (Calico
 *                      style: /32 routes, the node's side is 169.254.1.1), one real HTTP server
 *                      per port answering "<local ip:port> <peer ip>", and one UDP socket per
 *                      address and port answering each datagram with the same text
 *   <p>-n<k>c          a client pod on node k, with the pod address the steps give it
 *
 * Pod addresses are routed with /32 routes: on their node through the veth, on every other node
 * via that node's bridge address — as a routed pod network (Calico, flannel host-gw) does.
 *
 * Veths are created inside the namespaces (never in the host's), and deleting the namespaces
 * removes every veth, route and rule with them. close() does that; so does an exit handler if the
 * process ends without it (Ctrl-C), and sweepStale() for a run that was SIGKILLed. The helper
 * processes (servers, client agents) exit when their stdin closes, i.e. when this process dies.
 *
 * I/O lives here (a host/ folder); the session (../index.ts) decides what goes where.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { processAlive } from '../../../reference/host/processes.ts';
import { kernelSupport, run } from '../../../reference/proxy/host/netns.ts';

const PREFIX = 'ksk';
export const OUTSIDE_ADDRESS = '172.18.0.254';
/** The outside world's client addresses (made-up clients are drawn from TEST-NET-3 and around). */
export const OUTSIDE_CLIENTS = '203.0.0.0/16';
const SERVICE_CIDR = '10.96.0.0/12';
const GATEWAY = '169.254.1.1';

/** Root, `ip`, `iptables-restore`, `iptables-save`, `nft`, `sysctl` — and a namespace can really be made. */
export function kernelUnavailable(): string | undefined {
  const support = kernelSupport(['ip', 'iptables-restore', 'iptables-save', 'nft', 'sysctl']);
  return support.ok ? undefined : `the kernel target cannot run here: ${support.reason}`;
}

/** Whether the kernel has IPVS: /proc/net/ip_vs exists once ip_vs is loaded (nothing is loaded here: the host is not ours to change). */
export function kernelHasIpvs(): boolean {
  return spawnSync('test', ['-e', '/proc/net/ip_vs']).status === 0;
}

/** `ip -n NS -batch -`: many ip commands in one process. */
function ipBatch(ns: string, lines: string[]): void {
  if (lines.length > 0) run('ip', ['-n', ns, '-batch', '-'], `${lines.join('\n')}\n`);
}

const live = new Set<KernelNetwork>();
let exitHookInstalled = false;

/** Whatever is still up when the process ends (Ctrl-C, an uncaught error) is removed on the way out. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const n of live) n.close();
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      for (const n of live) n.close();
      process.kill(process.pid, signal);
    });
  }
}

/** Deletes namespaces of networks whose process is gone (a run killed with SIGKILL). */
export function sweepStale(): void {
  const list = spawnSync('ip', ['netns', 'list']).stdout?.toString() ?? '';
  for (const line of list.split('\n')) {
    const ns = line.split(' ')[0] ?? '';
    const pid = Number(new RegExp(`^${PREFIX}(\\d+)x\\d+-`).exec(ns)?.[1]);
    if (Number.isFinite(pid) && pid !== process.pid && !processAlive(pid)) spawnSync('ip', ['netns', 'del', ns]);
  }
}

/** One answer of a connection: who answered and what source it saw, or why there was none. */
export interface Answer {
  /** "ip:port" the backend was reached on. */
  backend?: string;
  /** The source address the backend saw. */
  peer?: string;
  /** ECONNREFUSED, EHOSTUNREACH, TIMEOUT, … when no answer came. */
  error?: string;
}

/**
 * A request for a client agent: `requests` HTTP GETs to dst:port, new connections or one kept
 * alive; or, with protocol UDP, `requests` datagrams each from a new socket (a new conntrack entry).
 */
export interface Send {
  dst: string;
  port: number;
  src?: string;
  /** TCP (HTTP) when absent. */
  protocol?: 'TCP' | 'UDP';
  requests: number;
  keepAlive: boolean;
  timeout_ms: number;
}

/**
 * A long-lived node process in a client namespace that makes HTTP requests on demand (one JSON
 * line in, one out): spawning a process per connection would make 3000 connections take minutes.
 * A connect that has not completed by the timeout counts as dropped; the timer's verdict is
 * checked once more after the event loop's poll phase, so a connection that completed while
 * this process waited for the CPU is not mistaken for a dropped one.
 *
 * UDP: a datagram from a connected socket bound to the source. The kernel hands a connected UDP
 * socket the ICMP port-unreachable of a reject (libuv reports it as ECONNREFUSED on receive), so
 * a reject and a drop (no answer by the timeout) are told apart as for TCP.
 */
const AGENT = String.raw`
const http = require('http');
const dgram = require('dgram');
function datagram(q) {
  return new Promise((done) => {
    const s = dgram.createSocket('udp4');
    let settled = false;
    let t;
    const finish = (a) => { if (!settled) { settled = true; clearTimeout(t); s.close(); done(a); } };
    s.on('message', (m) => { const [backend, peer] = m.toString().trim().split(' '); finish({ backend, peer }); });
    s.on('error', (e) => finish({ error: e.code || e.message }));
    s.bind({ address: q.src || '0.0.0.0', port: 0 }, () => s.connect(q.port, q.dst, (e) => {
      if (e) return finish({ error: e.code || e.message });
      s.send('kubespec', (e2) => { if (e2) finish({ error: e2.code || e2.message }); });
      t = setTimeout(() => setImmediate(() => finish({ error: 'TIMEOUT' })), q.timeout_ms);
    }));
  });
}
const rl = require('readline').createInterface({ input: process.stdin });
function one(q, agent) {
  return new Promise((done) => {
    let settled = false;
    const finish = (a) => { if (!settled) { settled = true; done(a); } };
    const req = http.get({ host: q.dst, port: q.port, agent, ...(q.src ? { localAddress: q.src } : {}), headers: { connection: q.keepAlive ? 'keep-alive' : 'close' } }, (res) => {
      let body = '';
      res.on('data', (d) => body += d);
      res.on('end', () => { const [backend, peer] = body.trim().split(' '); finish({ backend, peer }); });
    });
    req.on('socket', (s) => {
      if (!s.connecting) return;
      const t = setTimeout(() => setImmediate(() => { if (s.connecting) { req.destroy(); finish({ error: 'TIMEOUT' }); } }), q.timeout_ms);
      s.once('connect', () => clearTimeout(t));
      s.once('close', () => clearTimeout(t));
    });
    req.on('error', (e) => finish({ error: e.code || e.message }));
  });
}
rl.on('line', async (line) => {
  const q = JSON.parse(line);
  const agent = new http.Agent({ keepAlive: q.keepAlive, maxSockets: 1 });
  const out = [];
  for (let i = 0; i < q.requests; i++) out.push(await (q.protocol === 'UDP' ? datagram(q) : one(q, agent)));
  agent.destroy();
  process.stdout.write(JSON.stringify(out) + '\n');
});
rl.on('close', () => process.exit(0));
`;

/**
 * The backends: one HTTP server per port on demand ("listen <port>" in, "ok <port>" out), and one
 * UDP socket per address and port ("listen-udp <ip> <port>" in, "ok <port>" out), each answering
 * "<local ip:port> <peer>". A UDP socket bound to 0.0.0.0 cannot tell which local address a
 * datagram was sent to (Node has no IP_PKTINFO), so each address gets its own socket; its answer
 * leaves from that address, which is what conntrack un-DNATs on the way back.
 */
const SERVERS = String.raw`
const http = require('http');
const dgram = require('dgram');
const rl = require('readline').createInterface({ input: process.stdin });
function listenUdp(ip, port) {
  const s = dgram.createSocket('udp4');
  s.on('message', (m, from) => s.send(ip + ':' + port + ' ' + from.address + '\n', from.port, from.address));
  let bound = false;
  // After the bind, a failed answer is that datagram's loss only (the client times out).
  s.on('error', (e) => { if (!bound) process.stdout.write('error ' + port + ' ' + e.message + '\n'); });
  s.bind(port, ip, () => { bound = true; process.stdout.write('ok ' + port + '\n'); });
}
rl.on('line', (line) => {
  const words = line.split(' ');
  if (words[0] === 'listen-udp') return listenUdp(words[1], Number(words[2]));
  const port = Number(words[1]);
  const server = http.createServer((q, s) => s.end(q.socket.localAddress + ':' + q.socket.localPort + ' ' + q.socket.remoteAddress + '\n'));
  server.on('error', (e) => process.stdout.write('error ' + port + ' ' + e.message + '\n'));
  server.listen(port, '0.0.0.0', () => process.stdout.write('ok ' + port + '\n'));
});
rl.on('close', () => process.exit(0));
`;

/** A helper process speaking one line per request. */
class LineProcess {
  private readonly child: ChildProcess;
  private readonly waiting: Array<(line: string) => void> = [];
  private exited?: string;

  constructor(ns: string, script: string) {
    this.child = spawn('ip', ['netns', 'exec', ns, process.execPath, '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    this.child.stderr!.on('data', (d) => (stderr += d));
    createInterface({ input: this.child.stdout! }).on('line', (line) => this.waiting.shift()?.(line));
    this.child.once('exit', (code) => {
      this.exited = `helper in ${ns} exited with ${code}: ${stderr.trim()}`;
      for (const w of this.waiting.splice(0)) w(`!${this.exited}`);
    });
  }

  ask(line: string): Promise<string> {
    if (this.exited) return Promise.reject(new Error(this.exited));
    return new Promise((resolve, reject) => {
      this.waiting.push((answer) => (answer.startsWith('!') ? reject(new Error(answer.slice(1))) : resolve(answer)));
      this.child.stdin!.write(`${line}\n`);
    });
  }

  kill(): void {
    this.child.stdin?.end();
    this.child.kill('SIGKILL');
  }
}

interface NodeNet {
  ns: string;
  address: string;
  /** `udp` holds the "ip:port" pairs with a UDP socket: every address on every port, as the TCP servers on 0.0.0.0 are. */
  /** `agent`: a client inside the pods' namespace, for a backend calling out from its own address. */
  pods?: { ns: string; servers: LineProcess; addresses: Set<string>; ports: Set<number>; udp: Set<string>; agent?: LineProcess };
  client?: { ns: string; agent: LineProcess; address?: string };
  agent?: LineProcess;
}

let sequence = 0;

/**
 * The node's second address on its bridge port, which processes on the node bind to. A masquerade
 * rewrites the source to the interface's primary address, the node address: were the node's
 * processes to use that address too, a masqueraded connection would look like one that was not.
 */
export function processAddress(nodeAddress: string): string {
  const parts = nodeAddress.split('.');
  return `${parts.slice(0, 3).join('.')}.${Number(parts[3]) + 100}`;
}

export class KernelNetwork {
  readonly prefix = `${PREFIX}${process.pid}x${sequence++}`;
  private readonly namespaces: string[] = [];
  private readonly helpers: LineProcess[] = [];
  private readonly nodes = new Map<string, NodeNet>();
  /** Every pod address, with the node that hosts it (each node gets routes to all of them). */
  private readonly podRoutes = new Map<string, string>();
  private outside?: { agent: LineProcess; via?: string };
  private closed = false;

  private get net(): string {
    return `${this.prefix}-net`;
  }

  private get out(): string {
    return `${this.prefix}-out`;
  }

  /** The bridge and the outside world; nodes are added as the scenario names them. */
  up(): void {
    installExitHook();
    live.add(this);
    this.addNs(this.net);
    ipBatch(this.net, ['link set lo up', 'link add br0 type bridge', 'link set br0 up']);
    this.addNs(this.out);
    this.plug(this.out, 'br', `${OUTSIDE_ADDRESS}/24`);
    ipBatch(this.out, ['link set lo up', `route add local ${OUTSIDE_CLIENTS} dev lo`]);
  }

  /** A namespace's veth onto the bridge, with an address. */
  private plug(ns: string, name: string, cidr: string): void {
    const peer = `${name}${this.namespaces.length}`;
    ipBatch(this.net, [`link add ${peer} type veth peer name eth0 netns ${ns}`, `link set ${peer} master br0`, `link set ${peer} up`]);
    ipBatch(ns, [`addr add ${cidr} dev eth0`, 'link set eth0 up']);
  }

  private addNs(ns: string): void {
    run('ip', ['netns', 'add', ns]);
    this.namespaces.push(ns);
  }

  /** Node `name` with bridge address `address` (made once; later calls return it). */
  node(name: string, address: string): NodeNet {
    const existing = this.nodes.get(name);
    if (existing) return existing;
    const ns = `${this.prefix}-n${this.nodes.size}`;
    this.addNs(ns);
    this.plug(ns, 'n', `${address}/24`);
    ipBatch(ns, ['link set lo up', `addr add ${processAddress(address)}/24 dev eth0`, `route add default via ${OUTSIDE_ADDRESS}`]);
    run('ip', ['netns', 'exec', ns, 'sysctl', '-qw', 'net.ipv4.ip_forward=1']);
    const node: NodeNet = { ns, address };
    this.nodes.set(name, node);
    ipBatch(ns, [...this.podRoutes].map(([ip, host]) => `route replace ${ip}/32 via ${this.nodes.get(host)!.address}`));
    return node;
  }

  nodeNamespace(name: string): string {
    const n = this.nodes.get(name);
    if (!n) throw new Error(`node "${name}" has no namespace in the kernel network`);
    return n.ns;
  }

  /** A namespace hanging off a node by a veth (node side 169.254.1.1, /32 routes). */
  private attach(node: NodeNet, suffix: string): string {
    const ns = `${node.ns}${suffix}`;
    this.addNs(ns);
    const hostSide = `v${suffix}`;
    ipBatch(node.ns, [`link add ${hostSide} type veth peer name eth0 netns ${ns}`, `addr add ${GATEWAY}/32 dev ${hostSide}`, `link set ${hostSide} up`]);
    ipBatch(ns, ['link set lo up', 'link set eth0 up', `route add ${GATEWAY} dev eth0 scope link`, `route add default via ${GATEWAY} dev eth0`]);
    return ns;
  }

  /** Routes `ip` to `host`'s namespace `dev` on that node, and via that node everywhere else. */
  private routePod(ip: string, host: string, dev: string): void {
    this.podRoutes.set(ip, host);
    for (const [name, n] of this.nodes) ipBatch(n.ns, [name === host ? `route replace ${ip}/32 dev ${dev}` : `route replace ${ip}/32 via ${this.nodes.get(host)!.address}`]);
  }

  /**
   * A backend pod address on `node`, answering TCP and UDP on each of `ports` (whatever the
   * Service port's protocol: a rule that forwards the wrong protocol then reaches an answer).
   */
  async backend(nodeName: string, ip: string, ports: number[]): Promise<void> {
    const node = this.nodes.get(nodeName)!;
    if (!node.pods) {
      const ns = this.attach(node, 'p');
      const servers = new LineProcess(ns, SERVERS);
      this.helpers.push(servers);
      node.pods = { ns, servers, addresses: new Set(), ports: new Set(), udp: new Set() };
    }
    const pods = node.pods;
    if (!pods.addresses.has(ip)) {
      const owner = this.podRoutes.get(ip);
      if (owner && owner !== nodeName) throw new Error(`pod address ${ip} is on node "${owner}" and now also on "${nodeName}"`);
      ipBatch(pods.ns, [`addr add ${ip}/32 dev eth0`]);
      this.routePod(ip, nodeName, 'vp');
      pods.addresses.add(ip);
    }
    for (const port of ports) {
      if (pods.ports.has(port)) continue;
      const answer = await pods.servers.ask(`listen ${port}`);
      if (!answer.startsWith('ok')) throw new Error(`backend server on ${nodeName} port ${port}: ${answer}`);
      pods.ports.add(port);
    }
    await this.udpBackends(nodeName, pods);
  }

  /** A UDP socket for every address and port of the node's pods that has none yet. */
  private async udpBackends(nodeName: string, pods: NonNullable<NodeNet['pods']>): Promise<void> {
    for (const ip of pods.addresses) {
      for (const port of pods.ports) {
        if (pods.udp.has(`${ip}:${port}`)) continue;
        const answer = await pods.servers.ask(`listen-udp ${ip} ${port}`);
        if (!answer.startsWith('ok')) throw new Error(`backend UDP socket on ${nodeName} ${ip}:${port}: ${answer}`);
        pods.udp.add(`${ip}:${port}`);
      }
    }
  }

  /** The agent of a client pod on `node` with address `ip` (the pod is made on first use). */
  podClient(nodeName: string, ip: string): LineProcess {
    const node = this.nodes.get(nodeName)!;
    // A backend's own address: the client is that pod (hairpin through its Service), so it runs
    // where the address lives — moving the address to the client namespace would take it from the server.
    if (node.pods?.addresses.has(ip)) {
      if (!node.pods.agent) {
        node.pods.agent = new LineProcess(node.pods.ns, AGENT);
        this.helpers.push(node.pods.agent);
      }
      return node.pods.agent;
    }
    if (!node.client) {
      const ns = this.attach(node, 'c');
      const agent = new LineProcess(ns, AGENT);
      this.helpers.push(agent);
      node.client = { ns, agent };
    }
    if (node.client.address !== ip) {
      if (node.client.address) ipBatch(node.client.ns, [`addr del ${node.client.address}/32 dev eth0`]);
      ipBatch(node.client.ns, [`addr add ${ip}/32 dev eth0`]);
      this.routePod(ip, nodeName, 'vc');
      node.client.address = ip;
    }
    return node.client.agent;
  }

  /** The agent of a process on the node itself. */
  nodeProcess(nodeName: string): LineProcess {
    const node = this.nodes.get(nodeName)!;
    if (!node.agent) {
      node.agent = new LineProcess(node.ns, AGENT);
      this.helpers.push(node.agent);
    }
    return node.agent;
  }

  /** The agent of the outside world, its Service-range route pointed at `nodeName` (as a gateway would be). */
  outsideClient(nodeName: string): LineProcess {
    if (!this.outside) {
      this.outside = { agent: new LineProcess(this.out, AGENT) };
      this.helpers.push(this.outside.agent);
    }
    const via = this.nodes.get(nodeName)!.address;
    if (this.outside.via !== via) {
      ipBatch(this.out, [`route replace ${SERVICE_CIDR} via ${via}`]);
      this.outside.via = via;
    }
    return this.outside.agent;
  }

  /** HTTP requests (or UDP datagrams) through one agent. */
  async send(agent: LineProcess, s: Send): Promise<Answer[]> {
    return JSON.parse(await agent.ask(JSON.stringify(s))) as Answer[];
  }

  /** Runs a command in node `name`'s namespace (iptables-save, nft list, sysctl, …). */
  exec(nodeName: string, cmd: string, args: string[], input?: string): string {
    return run('ip', ['netns', 'exec', this.nodeNamespace(nodeName), cmd, ...args], input);
  }

  /** Stops the helpers and deletes every namespace (and with them their veths, routes and rules). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    live.delete(this);
    for (const h of this.helpers) h.kill();
    for (const ns of this.namespaces.reverse()) spawnSync('ip', ['netns', 'del', ns]);
    this.namespaces.length = 0;
  }
}
