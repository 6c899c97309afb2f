/**
 * A real local etcd cluster: N `etcd` processes on free loopback ports in a fresh temp dir.
 *
 * The flags are the static-bootstrap ones from etcd's clustering guide
 * (https://etcd.io/docs/v3.4/op-guide/clustering/#static): every member gets the whole
 * `--initial-cluster` list, the same `--initial-cluster-token`, and `--initial-cluster-state new`
 * on first start. A member that was killed comes back with the same name, data dir and URLs and
 * `--initial-cluster-state existing` (the data dir already holds its WAL, so it rejoins rather than
 * bootstraps). Measured on this machine: /work/shared/notes/real-targets.md § etcd.
 *
 * The cluster can also wrap endpoints somebody else runs (`attach`); then it only observes:
 * kill and restart are refused.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Etcd3, IOptions } from 'etcd3';
import { newEtcd3 } from './etcd3.ts';
import { HopelessWaitError, pollFor, pollUntil } from '../polling-waiter.ts';

const execFileAsync = promisify(execFile);

export interface EtcdStartOptions {
  /** Number of members; 3 unless asked (5 for `@members:5`). */
  members?: number;
  etcdBin?: string;
  etcdctlBin?: string;
  /** How long to wait for the first leader. A first election on defaults takes ~1–2 s here. */
  startBudget_ms?: number;
  /** Build every member's data dir from this snapshot (`etcdctl snapshot restore`) before starting. */
  restoreFrom?: string;
  /** Parent of the cluster's temp dir; os.tmpdir() unless given. */
  baseDir?: string;
  /** More flags for every member, at every start (e.g. `--auto-compaction-retention=3s`). */
  extraArgs?: readonly string[];
}

/** One member as the adapter knows it: its URLs, files, and the process that serves it. */
export interface EtcdMemberView {
  /** The member's --name (e1, e2, ...); also its id in the MembersFacet. */
  readonly name: string;
  readonly clientUrl: string;
  readonly peerUrl?: string;
  readonly dataDir?: string;
  readonly logPath?: string;
  readonly pid?: number;
  /** For a managed member: its process is running. For an attached endpoint: always true. */
  readonly alive: boolean;
}

/** What one member says about itself and the cluster (Maintenance.Status). */
export interface EtcdMemberStatus {
  name: string;
  /** etcd's member id (uint64 as a decimal string). */
  memberId: string;
  /** The leader's member id as this member knows it; '0' while it knows none. */
  leaderId: string;
  raftTerm: number;
  raftIndex: number;
  revision: number;
}

interface ManagedMember {
  name: string;
  clientUrl: string;
  peerUrl: string;
  dataDir: string;
  logPath: string;
  child?: ChildProcess;
  exited?: Promise<void>;
  alive: boolean;
  /** Set when we killed it on purpose, so an exit is not reported as a crash. */
  killedByUs: boolean;
}

export const DEFAULT_START_BUDGET_MS = 20_000;
export const STATUS_DEADLINE_MS = 800;
export const RESTART_BUDGET_MS = 10_000;

/** Every cluster still running, so a dying test process does not leave etcd behind. */
const running = new Set<EtcdCluster>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const cluster of running) cluster.stopSync();
  });
}

/**
 * Reserve `count` distinct free loopback ports by binding port 0. All sockets stay open until every
 * port is known, so the kernel cannot hand the same port out twice; there is still a short window
 * before etcd binds them, which is why a crash at start is reported with the member's log.
 */
export async function freeLoopbackPorts(count: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = net.createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
    }
    return servers.map((s) => (s.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

/** Does this binary answer `--version`? Used to skip tests and to decide capabilities. */
/**
 * The tool for offline snapshot work (restore, status). etcd 3.5 moved these to `etcdutl`
 * ("designed to operate directly on etcd data files": etcd-io/etcd etcdutl/README.md) and
 * deprecated `etcdctl snapshot restore|status`, slated for removal in 3.6 (kubernetes/website
 * content/en/docs/tasks/administer-cluster/configure-upgrade-etcd.md). etcd 3.4 — Debian 12's —
 * ships only etcdctl. Use etcdutl where it is installed.
 */
export async function offlineSnapshotTool(etcdctlBin: string): Promise<{ bin: string; env: NodeJS.ProcessEnv }> {
  snapshotToolCache ??= binaryAvailable('etcdutl');
  return (await snapshotToolCache)
    ? { bin: 'etcdutl', env: process.env }
    : { bin: etcdctlBin, env: { ...process.env, ETCDCTL_API: '3' } };
}
let snapshotToolCache: Promise<boolean> | undefined;

export async function binaryAvailable(bin: string): Promise<boolean> {
  try {
    await execFileAsync(bin, ['--version'], { timeout: 5_000 });
    return true;
  } catch {
    try {
      await execFileAsync(bin, ['version'], { timeout: 5_000 });
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * etcd3's default fault handling retries and opens a circuit breaker per host for 5 s. A status
 * probe must instead answer "no" at once, so that a member that has just restarted is seen as soon
 * as it serves, hence a policy that calls straight through.
 */
type FaultPolicy = NonNullable<NonNullable<IOptions['faultHandling']>['global']>;
const callStraightThrough = {
  execute: (fn: (ctx: { signal: AbortSignal; attempt: number }) => unknown) =>
    fn({ signal: new AbortController().signal, attempt: 0 }),
} as unknown as FaultPolicy;

export function probeClient(endpoint: string): Etcd3 {
  return newEtcd3({
    hosts: [endpoint],
    dialTimeout: STATUS_DEADLINE_MS,
    faultHandling: { global: callStraightThrough, host: () => callStraightThrough },
  });
}

export class EtcdCluster {
  private readonly managedMembers: ManagedMember[];
  private readonly probes = new Map<string, Etcd3>();
  private stopped = false;

  private constructor(
    readonly managed: boolean,
    members: ManagedMember[],
    readonly rootDir: string | undefined,
    private readonly token: string,
    private readonly etcdBin: string,
    readonly etcdctlBin: string,
    private readonly extraArgs: readonly string[] = [],
  ) {
    this.managedMembers = members;
  }

  /** Start a fresh cluster and return once its members agree on a leader. */
  static async start(opts: EtcdStartOptions = {}): Promise<EtcdCluster> {
    const count = opts.members ?? 3;
    const rootDir = fs.mkdtempSync(path.join(opts.baseDir ?? os.tmpdir(), 'kubespec-etcd-'));
    const ports = await freeLoopbackPorts(count * 2);
    const members = Array.from({ length: count }, (_, i) => planMember(rootDir, i, ports));
    const token = `kubespec-${randomBytes(6).toString('hex')}`;
    const cluster = new EtcdCluster(true, members, rootDir, token, opts.etcdBin ?? 'etcd', opts.etcdctlBin ?? 'etcdctl', opts.extraArgs);
    running.add(cluster);
    installExitHook();
    try {
      if (opts.restoreFrom !== undefined) await cluster.restoreDataDirs(opts.restoreFrom);
      for (const m of members) cluster.spawnMember(m, 'new');
      await cluster.waitForLeader(opts.startBudget_ms ?? DEFAULT_START_BUDGET_MS);
      return cluster;
    } catch (err) {
      await cluster.stop();
      throw err;
    }
  }

  /** Wrap endpoints that somebody else runs. Nothing is started, killed or removed. */
  static attach(endpoints: string[], etcdctlBin = 'etcdctl'): EtcdCluster {
    if (endpoints.length === 0) throw new Error('attach needs at least one endpoint');
    const members = endpoints.map((url) => ({
      name: url, clientUrl: url, peerUrl: '', dataDir: '', logPath: '', alive: true, killedByUs: false,
    }));
    return new EtcdCluster(false, members, undefined, '', 'etcd', etcdctlBin);
  }

  /** Client URLs of every member, dead or alive (a client pool skips the dead ones). */
  endpoints(): string[] {
    return this.managedMembers.map((m) => m.clientUrl);
  }

  liveEndpoints(): string[] {
    return this.managedMembers.filter((m) => m.alive).map((m) => m.clientUrl);
  }

  members(): EtcdMemberView[] {
    return this.managedMembers.map((m) => ({
      name: m.name,
      clientUrl: m.clientUrl,
      ...(this.managed ? { peerUrl: m.peerUrl, dataDir: m.dataDir, logPath: m.logPath } : {}),
      ...(m.child?.pid !== undefined && m.alive ? { pid: m.child.pid } : {}),
      alive: m.alive,
    }));
  }

  /** Status of one member, or undefined when it does not answer within STATUS_DEADLINE_MS. */
  async status(name: string): Promise<EtcdMemberStatus | undefined> {
    const member = this.member(name);
    if (!member.alive) return undefined;
    try {
      const res = await this.probe(member).maintenance.status({ deadline: Date.now() + STATUS_DEADLINE_MS });
      return {
        name,
        memberId: res.header.member_id,
        leaderId: res.leader,
        raftTerm: Number(res.raftTerm),
        raftIndex: Number(res.raftIndex),
        revision: Number(res.header.revision),
      };
    } catch {
      return undefined;
    }
  }

  /**
   * The term a member leads, confirmed — or undefined when it no longer claims to lead or cannot
   * serve a linearizable read. etcd's Status reports `raftTerm` as the term of the last *applied*
   * entry (etcd-io/etcd server/etcdserver/server.go: applyEntries calls setTerm(e.GetTerm())),
   * while `leader` is raft's current SoftState: a member just elected in term T+1 reports itself
   * leader "in term T" until its first entry of T+1 is applied. A linearizable read through the
   * member completes only after it has applied up to a ReadIndex, which a leader serves only once
   * it has committed an entry of its own term (raft §6.4), so the Status taken after the read names
   * its real term.
   */
  async confirmedLeaderTerm(name: string): Promise<number | undefined> {
    const member = this.member(name);
    if (!member.alive) return undefined;
    try {
      await this.probe(member).get('kubespec/leader-term-probe').options({ deadline: Date.now() + STATUS_DEADLINE_MS });
    } catch {
      return undefined;
    }
    const after = await this.status(name);
    return after !== undefined && after.leaderId === after.memberId ? after.raftTerm : undefined;
  }

  /** Status of every member whose process runs (managed) or every endpoint (attached). */
  async statuses(): Promise<Array<EtcdMemberStatus | undefined>> {
    return Promise.all(this.managedMembers.filter((m) => m.alive).map((m) => this.status(m.name)));
  }

  /**
   * The leader's name, only when every live member answers, all name the same leader, and that
   * leader is itself live. Followers keep naming a killed leader until the election ends, so
   * agreement alone is not enough. Attached endpoints that do not answer are not counted.
   */
  async leader(): Promise<string | undefined> {
    const answers = await this.statuses();
    const known = answers.filter((s): s is EtcdMemberStatus => s !== undefined);
    if (known.length === 0 || (this.managed && known.length !== answers.length)) return undefined;
    const leaderIds = new Set(known.map((s) => s.leaderId));
    const [leaderId] = [...leaderIds];
    if (leaderIds.size !== 1 || leaderId === undefined || leaderId === '0') return undefined;
    return known.find((s) => s.memberId === leaderId)?.name;
  }

  /** Wait until the members agree on a leader (other than `notName`, when given). */
  async waitForLeader(budget_ms: number, notName?: string): Promise<string> {
    const what = notName === undefined ? 'etcd members to agree on a leader' : `a leader other than ${notName}`;
    return pollFor(what, async () => {
      this.throwIfCrashed();
      const leader = await this.leader();
      return leader !== undefined && leader !== notName ? leader : undefined;
    }, budget_ms);
  }

  /** SIGKILL one member, as a crash would; resolves once the process is gone. */
  async kill(name: string): Promise<void> {
    this.requireManaged('kill');
    const member = this.member(name);
    if (!member.alive || member.child === undefined) return;
    member.killedByUs = true;
    member.child.kill('SIGKILL');
    await member.exited;
    this.dropProbe(member);
  }

  /** Start a killed member again with its old data dir; resolves once it accepts connections. */
  async restart(name: string, budget_ms = RESTART_BUDGET_MS): Promise<void> {
    this.requireManaged('restart');
    const member = this.member(name);
    if (member.alive) return;
    this.spawnMember(member, 'existing');
    await pollUntil(`${name} to accept connections on ${member.clientUrl}`, async () => {
      this.throwIfCrashed();
      return tcpConnects(member.clientUrl);
    }, budget_ms);
  }

  /** Kill every member and remove the temp dir. Safe to call twice. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const probe of this.probes.values()) probe.close();
    this.probes.clear();
    if (this.managed) {
      await Promise.all(this.managedMembers.map(async (m) => {
        m.killedByUs = true;
        if (m.alive) m.child?.kill('SIGKILL');
        await m.exited;
      }));
      if (this.rootDir !== undefined) fs.rmSync(this.rootDir, { recursive: true, force: true });
    }
    running.delete(this);
  }

  /** The synchronous last resort for process exit: no awaiting is possible there. */
  stopSync(): void {
    for (const m of this.managedMembers) {
      if (m.alive && m.child?.pid !== undefined) {
        try { process.kill(m.child.pid, 'SIGKILL'); } catch { /* already gone */ }
      }
    }
    if (this.managed && this.rootDir !== undefined) fs.rmSync(this.rootDir, { recursive: true, force: true });
  }

  /** Facts for a failure report. */
  describe(): Record<string, unknown> {
    return { managed: this.managed, rootDir: this.rootDir, endpoints: this.endpoints(), members: this.members() };
  }

  private member(name: string): ManagedMember {
    const member = this.managedMembers.find((m) => m.name === name);
    if (member === undefined) {
      throw new Error(`no etcd member named ${name} (members: ${this.managedMembers.map((m) => m.name).join(', ')})`);
    }
    return member;
  }

  private requireManaged(what: string): void {
    if (!this.managed) throw new Error(`${what} is unavailable: this target uses existing endpoints it did not start`);
    if (this.stopped) throw new Error(`${what} is unavailable: the cluster was stopped`);
  }

  private probe(member: ManagedMember): Etcd3 {
    let client = this.probes.get(member.name);
    if (client === undefined) {
      client = probeClient(member.clientUrl);
      this.probes.set(member.name, client);
    }
    return client;
  }

  private dropProbe(member: ManagedMember): void {
    this.probes.get(member.name)?.close();
    this.probes.delete(member.name);
  }

  private initialCluster(): string {
    return this.managedMembers.map((m) => `${m.name}=${m.peerUrl}`).join(',');
  }

  private spawnMember(member: ManagedMember, state: 'new' | 'existing'): void {
    const args = [
      '--name', member.name,
      '--data-dir', member.dataDir,
      '--listen-client-urls', member.clientUrl,
      '--advertise-client-urls', member.clientUrl,
      '--listen-peer-urls', member.peerUrl,
      '--initial-advertise-peer-urls', member.peerUrl,
      '--initial-cluster', this.initialCluster(),
      '--initial-cluster-state', state,
      '--initial-cluster-token', this.token,
      '--logger', 'zap',
      '--log-outputs', 'stderr',
      ...this.extraArgs,
    ];
    const logFd = fs.openSync(member.logPath, 'a');
    try {
      const child = spawn(this.etcdBin, args, { stdio: ['ignore', logFd, logFd] });
      member.child = child;
      member.alive = true;
      member.killedByUs = false;
      member.exited = new Promise<void>((resolve) => {
        child.once('exit', () => { member.alive = false; resolve(); });
        child.once('error', () => { member.alive = false; resolve(); });
      });
    } finally {
      fs.closeSync(logFd);
    }
  }

  /** A member that exits without being killed has failed to start (port taken, bad data dir). */
  private throwIfCrashed(): void {
    const crashed = this.managedMembers.find((m) => m.child !== undefined && !m.alive && !m.killedByUs);
    if (crashed === undefined) return;
    throw new HopelessWaitError(`etcd member ${crashed.name} exited unexpectedly; log tail:\n${logTail(crashed.logPath)}`);
  }

  /**
   * `snapshot restore` (etcdutl where installed, else etcdctl) writes a member dir whose cluster
   * membership is the new one (https://etcd.io/docs/v3.4/op-guide/recovery/#restoring-a-cluster):
   * every member is restored from the same file with its own --name and peer URL, then started as usual.
   */
  private async restoreDataDirs(snapshotPath: string): Promise<void> {
    const tool = await offlineSnapshotTool(this.etcdctlBin);
    for (const m of this.managedMembers) {
      await execFileAsync(tool.bin, [
        'snapshot', 'restore', snapshotPath,
        '--name', m.name,
        '--data-dir', m.dataDir,
        '--initial-cluster', this.initialCluster(),
        '--initial-cluster-token', this.token,
        '--initial-advertise-peer-urls', m.peerUrl,
      ], { timeout: 30_000, env: tool.env });
    }
  }
}

function planMember(rootDir: string, index: number, ports: number[]): ManagedMember {
  const name = `e${index + 1}`;
  const memberDir = path.join(rootDir, name);
  fs.mkdirSync(memberDir, { recursive: true });
  return {
    name,
    clientUrl: `http://127.0.0.1:${ports[index * 2]}`,
    peerUrl: `http://127.0.0.1:${ports[index * 2 + 1]}`,
    dataDir: path.join(memberDir, 'data'),
    logPath: path.join(memberDir, 'etcd.log'),
    alive: false,
    killedByUs: false,
  };
}

function tcpConnects(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => { socket.destroy(); resolve(false); });
  });
}

function logTail(logPath: string, lines = 15): string {
  try {
    return fs.readFileSync(logPath, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
