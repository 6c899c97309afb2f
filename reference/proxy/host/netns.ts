/**
 * A small Linux network for loading kube-proxy's rules into a real kernel (root only): a "node"
 * network namespace where the rules go, backend namespaces each joined to it by a veth pair
 * (one /24 per backend, the backend's default route via the node), and an "outside" client
 * namespace. Every namespace this creates carries the run's prefix and is deleted by close()
 * — deleting a namespace removes its veths, routes and rules with it — and, for a run that died,
 * by the next run's sweep of stale prefixes.
 *
 * I/O lives here (a host/ folder), never in the pure cores next to it.
 */
import { processAlive } from '../../host/processes.ts';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';

export interface KernelSupport {
  ok: boolean;
  /** Why the real kernel cannot be used here, when it cannot. */
  reason?: string;
}

/** Root, `ip`, `iptables-restore` (and `nft` when asked) — and a namespace can really be made. */
export function kernelSupport(tools: string[] = ['ip', 'iptables-restore', 'nft']): KernelSupport {
  if (process.platform !== 'linux') return { ok: false, reason: 'not Linux' };
  if (process.getuid?.() !== 0) return { ok: false, reason: 'not running as root (network namespaces and iptables need it)' };
  for (const tool of tools) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return { ok: false, reason: `${tool} is not installed (apt-get install iproute2 iptables nftables procps)` };
  }
  const probe = `ks-probe-${process.pid}`;
  const made = spawnSync('ip', ['netns', 'add', probe]);
  spawnSync('ip', ['netns', 'del', probe]);
  if (made.status !== 0) return { ok: false, reason: `cannot create a network namespace: ${made.stderr.toString().trim()}` };
  return { ok: true };
}

/** Runs a host command; a failure throws with the command line and its stderr. */
export function run(cmd: string, args: string[], input?: string): string {
  try {
    return execFileSync(cmd, args, { input, stdio: ['pipe', 'pipe', 'pipe'] }).toString();
  } catch (e) {
    const err = e as { stderr?: Buffer; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed: ${err.stderr?.toString().trim() || err.message}`);
  }
}

export interface Backend {
  /** Its name, which its HTTP server answers with. */
  name: string;
  ip: string;
}

export const NODE_IP = '203.0.113.1';
export const CLIENT_IP = '203.0.113.2';

/**
 * A node with backends and a client. Backend k gets 10.244.<k+1>.10 (node side .1); the client
 * is 203.0.113.2, the node 203.0.113.1.
 */
export class KernelNetwork {
  readonly node: string;
  readonly client: string;
  readonly backends: Backend[] = [];
  private readonly namespaces: string[] = [];
  private readonly servers: ChildProcess[] = [];

  constructor(readonly prefix: string, backendNames: string[]) {
    this.node = `${prefix}-node`;
    this.client = `${prefix}-client`;
    backendNames.forEach((name, k) => this.backends.push({ name, ip: `10.244.${k + 1}.10` }));
  }

  /** Deletes namespaces left by runs that were killed before they could clean up. */
  static sweep(stalePrefix = 'ks-'): void {
    const list = spawnSync('ip', ['netns', 'list']).stdout?.toString() ?? '';
    for (const line of list.split('\n')) {
      const ns = line.split(' ')[0];
      if (!ns?.startsWith(stalePrefix)) continue;
      const pid = Number(/^ks-(?:px|pb)(\d+)-/.exec(ns)?.[1]);
      if (Number.isFinite(pid) && pid !== process.pid && !processAlive(pid)) spawnSync('ip', ['netns', 'del', ns]);
    }
  }

  up(): void {
    this.addNs(this.node);
    this.exec(this.node, 'ip', 'link', 'set', 'lo', 'up');
    this.exec(this.node, 'sysctl', '-qw', 'net.ipv4.ip_forward=1');
    // An uplink with a default route, as every node has: a ClusterIP kube-proxy did not DNAT is
    // then routed (and met by the filter table's REJECT) instead of failing routing first.
    // (A veth pair inside the node: this kernel has no dummy interfaces.)
    this.exec(this.node, 'ip', 'link', 'add', 'uplink0', 'type', 'veth', 'peer', 'name', 'uplink1');
    this.exec(this.node, 'ip', 'addr', 'add', '198.51.100.1/24', 'dev', 'uplink0');
    this.exec(this.node, 'ip', 'link', 'set', 'uplink0', 'up');
    this.exec(this.node, 'ip', 'link', 'set', 'uplink1', 'up');
    this.exec(this.node, 'ip', 'route', 'add', 'default', 'via', '198.51.100.254');
    this.link(this.client, 'c', `${NODE_IP}/24`, `${CLIENT_IP}/24`, NODE_IP);
    this.backends.forEach((b, k) => this.link(`${this.prefix}-b${k}`, `b${k}`, `10.244.${k + 1}.1/24`, `${b.ip}/24`, `10.244.${k + 1}.1`));
  }

  /** A veth pair from the node to a new namespace, with addresses and the far side's default route. */
  private link(ns: string, tag: string, nodeAddr: string, farAddr: string, gateway: string): void {
    this.addNs(ns);
    const [a, b] = [`${tag}n${process.pid % 10000}`, `${tag}f${process.pid % 10000}`];
    run('ip', ['link', 'add', a, 'netns', this.node, 'type', 'veth', 'peer', 'name', b, 'netns', ns]);
    this.exec(this.node, 'ip', 'addr', 'add', nodeAddr, 'dev', a);
    this.exec(this.node, 'ip', 'link', 'set', a, 'up');
    this.exec(ns, 'ip', 'link', 'set', 'lo', 'up');
    this.exec(ns, 'ip', 'addr', 'add', farAddr, 'dev', b);
    this.exec(ns, 'ip', 'link', 'set', b, 'up');
    this.exec(ns, 'ip', 'route', 'add', 'default', 'via', gateway);
  }

  private addNs(ns: string): void {
    run('ip', ['netns', 'add', ns]);
    this.namespaces.push(ns);
  }

  exec(ns: string, cmd: string, ...args: string[]): string {
    return run('ip', ['netns', 'exec', ns, cmd, ...args]);
  }

  /** Loads `iptables-restore` input into the node (all tables named in it are replaced). */
  iptablesRestore(text: string): void {
    run('ip', ['netns', 'exec', this.node, 'iptables-restore'], text);
  }

  /** Runs an `nft -f` transaction in the node. */
  nft(text: string): void {
    run('ip', ['netns', 'exec', this.node, 'nft', '-f', '-'], text);
  }

  /** One HTTP server per backend on `port`, answering "<name> <client address>". */
  async startServers(port: number): Promise<void> {
    const script = `require('http').createServer((q,s)=>s.end(process.argv[1]+' '+q.socket.remoteAddress)).listen(${port}, process.argv[2], () => console.log('up'))`;
    await Promise.all(this.backends.map((b, k) => new Promise<void>((resolve, reject) => {
      const child = spawn('ip', ['netns', 'exec', `${this.prefix}-b${k}`, process.execPath, '-e', script, b.name, b.ip], { stdio: ['ignore', 'pipe', 'pipe'] });
      this.servers.push(child);
      child.stdout!.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`backend ${b.name} exited with ${code}`)));
    })));
  }

  /**
   * From the client namespace: `count` HTTP requests to ip:port, each on a new connection (or
   * all on one keep-alive connection). Returns each answer, or the error code (ECONNREFUSED…).
   */
  requests(ip: string, port: number, count: number, opts: { keepAlive?: boolean; timeout_ms?: number } = {}): string[] {
    const script = `
      const http = require('http');
      const agent = new http.Agent({ keepAlive: ${!!opts.keepAlive}, maxSockets: 1 });
      const one = () => new Promise((res) => {
        const req = http.get({ host: '${ip}', port: ${port}, agent, timeout: ${opts.timeout_ms ?? 2000} }, (r) => { let b=''; r.on('data', (d) => b += d); r.on('end', () => res(b)); });
        req.on('timeout', () => { req.destroy(); res('TIMEOUT'); });
        req.on('error', (e) => res(e.code === 'ECONNRESET' && req.destroyed ? 'TIMEOUT' : e.code));
      });
      (async () => { const out = []; for (let i = 0; i < ${count}; i++) out.push(await one()); console.log(JSON.stringify(out)); agent.destroy(); })();`;
    return JSON.parse(this.exec(this.client, process.execPath, '-e', script));
  }

  /** Stops the servers and deletes every namespace (and with them their veths and rules). */
  close(): void {
    for (const s of this.servers) s.kill('SIGKILL');
    for (const ns of this.namespaces.reverse()) spawnSync('ip', ['netns', 'del', ns]);
    this.namespaces.length = 0;
  }
}

