/**
 * A containerd of the suite's own: started from a config in a fresh temp dir (root, state,
 * socket, CNI config, IPAM data, runc state all inside it), never the machine's containerd.
 * Pods get their own network namespace on a bridge of their own (Debian's
 * containernetworking-plugins: bridge + host-local), so each pod has its own IP on a /24 the
 * host routes to, and probes from the kubelet (this process) reach pod IPs directly.
 *
 * Everything started is undone by `stop()`: every sandbox stopped and removed through CRI
 * (which tears down its containers, network namespace and IP), containerd and any shim left
 * ended, mounts under the dir unmounted, the bridge deleted, `net.ipv4.ip_forward` (which the
 * bridge plugin turns on) restored, the dir removed. A dir left by a run that died (its owner
 * pid gone: a SIGKILL, a watchdog) is cleaned the same way by the next start (`reapStale`).
 *
 * Quirks of containerd 1.6 on such machines (../shared/notes/real-targets.md): the cri plugin
 * needs `restrict_oom_score_adj` (root lacks CAP_SYS_RESOURCE here) and the pause image present
 * locally under `sandbox_image`.
 */
import { processAlive } from '../../../reference/host/processes.ts';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GrpcCriRuntime } from '../grpc-client.ts';
import { buildGrpcHealthArchive, buildImageArchive, retaggedArchive, vocabulary, BUSYBOX } from './images.ts';

export const PAUSE_IMAGE = 'registry.k8s.io/pause:3.6-kubespec';
const DIR_PREFIX = 'kubespec-cri-';
const CNI_BIN_DIRS = ['/usr/lib/cni', '/opt/cni/bin'];
const IP_FORWARD = '/proc/sys/net/ipv4/ip_forward';

/** Why this machine cannot run the cri target, or undefined. */
export function containerdUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'the cri target starts containerd and runs containers: it must run as root';
  for (const bin of ['containerd', 'ctr', 'runc']) {
    if (spawnSync('which', [bin]).status !== 0) return `${bin} is not installed: apt-get install containerd runc busybox-static containernetworking-plugins`;
  }
  if (!fs.existsSync(BUSYBOX) || dynamicallyLinked(BUSYBOX)) return 'busybox-static is not installed (the images are built from /bin/busybox, which must be statically linked): apt-get install busybox-static';
  if (!cniBinDir()) return 'the CNI plugins are not installed: apt-get install containernetworking-plugins';
  return undefined;
}

/** Whether an ELF64 executable asks for a dynamic loader (has a PT_INTERP program header): it would not run alone in an image. */
function dynamicallyLinked(file: string): boolean {
  const elf = fs.readFileSync(file);
  if (elf.readUInt32BE(0) !== 0x7f454c46 || elf[4] !== 2) return true;
  const phoff = Number(elf.readBigUInt64LE(0x20));
  const size = elf.readUInt16LE(0x36);
  const count = elf.readUInt16LE(0x38);
  for (let i = 0; i < count; i++) if (elf.readUInt32LE(phoff + i * size) === 3) return true;
  return false;
}

function cniBinDir(): string | undefined {
  return CNI_BIN_DIRS.find((d) => fs.existsSync(path.join(d, 'bridge')) && fs.existsSync(path.join(d, 'host-local')) && fs.existsSync(path.join(d, 'loopback')));
}

export function containerdVersion(): string {
  const out = spawnSync('containerd', ['--version'], { encoding: 'utf8' }).stdout ?? '';
  return /\s(\d+\.\d+\.\d+)/.exec(out)?.[1] ?? 'unknown';
}

interface HostState {
  dir: string;
  socket: string;
  bridge: string;
  subnet: string;
  /** ip_forward before we started, to put back. */
  ipForward: string;
  containerdPid?: number;
}

export class ContainerdHost {
  private child?: ChildProcess;
  private stopping?: Promise<void>;
  private readonly onSignal = (signal: NodeJS.Signals) => {
    void this.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };

  private constructor(readonly state: HostState) {}

  get endpoint(): string {
    return `unix://${this.state.socket}`;
  }

  get dir(): string {
    return this.state.dir;
  }

  /** Starts containerd with images imported; also cleans what dead runs left behind first. */
  static async start(opts: { log?: (line: string) => void } = {}): Promise<ContainerdHost> {
    await reapStale(opts.log);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), DIR_PREFIX));
    fs.chmodSync(dir, 0o711);
    const tag = randomBytes(3).toString('hex');
    const state: HostState = { dir, socket: path.join(dir, 'containerd.sock'), bridge: `ks${tag}`, subnet: freeSubnet(), ipForward: readIpForward() };
    const host = new ContainerdHost(state);
    host.saveState();
    process.once('SIGINT', host.onSignal).once('SIGTERM', host.onSignal);
    try {
      writeConfig(state);
      await host.launch();
      importImages(state);
      return host;
    } catch (error) {
      await host.stop();
      throw error;
    }
  }

  private saveState(): void {
    fs.writeFileSync(path.join(this.state.dir, 'kubespec-host.json'), JSON.stringify({ ...this.state, ownerPid: process.pid }));
  }

  private async launch(): Promise<void> {
    const log = fs.openSync(path.join(this.state.dir, 'containerd.log'), 'a');
    // Its own process group: a signal to the suite's group must not end it before its sandboxes are cleaned.
    this.child = spawn('containerd', ['--config', path.join(this.state.dir, 'config.toml')], { stdio: ['ignore', log, log], detached: true });
    fs.closeSync(log);
    this.child.unref();
    this.state.containerdPid = this.child.pid;
    this.saveState();
    const client = new GrpcCriRuntime({ endpoint: this.endpoint, now_ms: Date.now });
    try {
      for (let i = 0; ; i++) {
        try {
          await client.version({ version: 'v1' });
          return;
        } catch (error) {
          if (i > 100 || this.child.exitCode !== null) throw new Error(`containerd did not answer on ${this.state.socket}: ${(error as Error).message}; log: ${this.logTail()}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    } finally {
      client.close();
    }
  }

  logTail(): string {
    try {
      return fs.readFileSync(path.join(this.state.dir, 'containerd.log'), 'utf8').split('\n').slice(-15).join('\n');
    } catch {
      return '(no log)';
    }
  }

  /**
   * The tag `name` (normalised) names a rebuilt image from now on (host/images.ts retaggedArchive),
   * imported as a pull of the moved tag would record it; returns the new manifest digest.
   */
  retagImage(name: string): string {
    const work = path.join(this.state.dir, 'images');
    const { archive, digest } = retaggedArchive(work, name, ++this.retags);
    execFileSync('ctr', ['--address', this.state.socket, '--namespace', 'k8s.io', 'images', 'import', archive], { stdio: 'pipe' });
    fs.rmSync(archive, { force: true });
    return digest;
  }

  private retags = 0;

  /** Makes the `kubespec/grpc-health:*` images present (host/images.ts), for scenarios that run gRPC probes. */
  importGrpcHealthImages(): void {
    importGrpcHealthImages(this.state);
  }

  /** Puts back any vocabulary image a scenario removed (RemoveImage), so the next one finds it. */
  reimportImages(): void {
    importImages(this.state);
  }

  /** Stops and removes every sandbox (and so every container) through CRI; keeps containerd running. */
  async removeAllSandboxes(): Promise<void> {
    await this.holdMemory(0);
    await removeSandboxes(this.endpoint);
  }

  // ---- the node's memory (kubelet.eviction) ---------------------------------------------------

  /**
   * The node's memory working set, as cadvisor computes a cgroup's on cgroup v1 (usage_in_bytes −
   * total_inactive_file): of the cgroup every pod of this node lives under (cgroupParentOf), so the
   * node is that subtree — as a kind node is its container's cgroup — not this shared machine.
   */
  memoryWorkingSet(): number {
    const dir = path.join('/sys/fs/cgroup/memory', cgroupParentOf(this.state));
    try {
      const usage = Number(fs.readFileSync(path.join(dir, 'memory.usage_in_bytes'), 'utf8'));
      const inactive = Number(/^total_inactive_file (\d+)$/m.exec(fs.readFileSync(path.join(dir, 'memory.stat'), 'utf8'))?.[1] ?? 0);
      return Math.max(0, usage - inactive);
    } catch {
      return 0; // no pod has run yet: the cgroup is not there
    }
  }

  private hog?: ChildProcess;

  /**
   * A process outside every pod holds `bytes` from now on (0: none), in a cgroup of its own under
   * the node's (a node's system.slice), moved there before it touches its memory so the pages are
   * charged to the node. Its script lives in this host's dir, so teardown ends it whatever happens.
   */
  async holdMemory(bytes: number): Promise<void> {
    if (this.hog?.pid) await endProcess(this.hog.pid);
    this.hog = undefined;
    if (bytes <= 0) return;
    const cgroup = path.join('/sys/fs/cgroup/memory', cgroupParentOf(this.state), 'system');
    fs.mkdirSync(cgroup, { recursive: true });
    const script = path.join(this.state.dir, 'hog.mjs');
    fs.writeFileSync(script, "process.stdin.once('data', () => { globalThis.held = Buffer.alloc(Number(process.argv[2]), 1); process.stdout.write('held\\n'); }); setInterval(() => {}, 1 << 30);\n");
    const hog = spawn(process.execPath, [script, String(bytes)], { stdio: ['pipe', 'pipe', 'ignore'] });
    this.hog = hog;
    fs.writeFileSync(path.join(cgroup, 'cgroup.procs'), String(hog.pid));
    const held = new Promise<void>((resolve, reject) => {
      hog.stdout!.once('data', () => resolve());
      hog.once('exit', (code) => reject(new Error(`the memory hog exited (${code}) before holding ${bytes} bytes`)));
    });
    hog.stdin!.write('go\n');
    await held;
  }

  stop(): Promise<void> {
    if (this.hog?.pid) spawnSync('kill', ['-9', String(this.hog.pid)]);
    process.off('SIGINT', this.onSignal).off('SIGTERM', this.onSignal);
    this.stopping ??= teardown(this.state);
    return this.stopping;
  }
}

async function removeSandboxes(endpoint: string): Promise<void> {
  const client = new GrpcCriRuntime({ endpoint, now_ms: Date.now });
  try {
    const { items } = await client.listPodSandbox({});
    for (const s of items) {
      await client.stopPodSandbox({ podSandboxId: s.id }).catch(() => undefined);
      await client.removePodSandbox({ podSandboxId: s.id }).catch(() => undefined);
    }
  } finally {
    client.close();
  }
}

/** Everything `start` did, undone; safe to run twice and on a half-started host. */
async function teardown(state: HostState): Promise<void> {
  if (state.containerdPid && processAlive(state.containerdPid)) {
    await removeSandboxes(`unix://${state.socket}`).catch(() => undefined);
    await endProcess(state.containerdPid);
  }
  // Shims outlive containerd by design; ours name our socket on their command line.
  for (const pid of processesMentioning(state.dir)) await endProcess(pid);
  unmountUnder(state.dir);
  spawnSync('ip', ['link', 'delete', state.bridge], { stdio: 'ignore' });
  removeCgroups(cgroupParentOf(state));
  if (state.ipForward && readIpForward() !== state.ipForward) fs.writeFileSync(IP_FORWARD, state.ipForward);
  fs.rmSync(state.dir, { recursive: true, force: true });
}

/** Dirs of runs whose owner died: start their containerd again to clean through CRI, then tear down. */
async function reapStale(log?: (line: string) => void): Promise<void> {
  for (const name of fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(DIR_PREFIX))) {
    const file = path.join(os.tmpdir(), name, 'kubespec-host.json');
    let state: HostState & { ownerPid?: number };
    try {
      state = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    if (state.ownerPid && processAlive(state.ownerPid)) continue;
    // Several workers start at once and may all find the same dead run: the one whose rename of
    // the state file succeeds cleans it; the others leave it alone (rename is atomic).
    try {
      fs.renameSync(file, `${file}.reaped-by-${process.pid}`);
    } catch {
      continue;
    }
    log?.(`cri: cleaning ${state.dir}, left by pid ${state.ownerPid}`);
    if (!(state.containerdPid && processAlive(state.containerdPid)) && fs.existsSync(path.join(state.dir, 'config.toml'))) {
      const child = spawn('containerd', ['--config', path.join(state.dir, 'config.toml')], { stdio: 'ignore', detached: true });
      child.unref();
      state.containerdPid = child.pid;
      await new Promise((r) => setTimeout(r, 500));
    }
    await teardown(state);
  }
}


async function endProcess(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  for (let i = 0; i < 50 && processAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (processAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

function processesMentioning(text: string): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) out.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/** Mount points under `dir` (rootfs overlays, shm, netns binds), deepest first, lazily unmounted. */
function unmountUnder(dir: string): void {
  const points = fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n')
    .map((l) => l.split(' ')[4]?.replace(/\\040/g, ' '))
    .filter((p): p is string => !!p && (p === dir || p.startsWith(`${dir}/`)))
    .sort((a, b) => b.length - a.length);
  for (const p of points) spawnSync('umount', ['-l', p], { stdio: 'ignore' });
}

/** The cgroup root this host's pods go under (GrpcCriOptions.cgroupParent). */
export function cgroupParentOf(state: { bridge: string }): string {
  return `/kubespec-${state.bridge}`;
}

/** rmdir the cgroup tree under `parent` in every hierarchy (v1 controllers or the v2 unified one), deepest first. */
function removeCgroups(parent: string): void {
  const roots = fs.readdirSync('/sys/fs/cgroup').map((c) => path.join('/sys/fs/cgroup', c, parent)).concat([path.join('/sys/fs/cgroup', parent)]);
  for (const root of roots) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[];
    } catch {
      continue; // not there (or removed meanwhile by the kernel or another cleaner)
    }
    const dirs = [root, ...entries.filter((e) => e.isDirectory()).map((e) => path.join(e.parentPath ?? (e as any).path, e.name))];
    for (const d of dirs.sort((a, b) => b.length - a.length)) {
      try {
        fs.rmdirSync(d);
      } catch {
        // still has tasks, or not ours
      }
    }
  }
}

function readIpForward(): string {
  try {
    return fs.readFileSync(IP_FORWARD, 'utf8').trim();
  } catch {
    return '';
  }
}

/** A 10.x.y.0/24 that no route on the machine covers yet (other runs, other tools). */
function freeSubnet(): string {
  const routes = execFileSync('ip', ['-4', 'route', 'show'], { encoding: 'utf8' });
  for (;;) {
    const [a, b] = randomBytes(2);
    const net = `10.${200 + (a! % 50)}.${b}`;
    if (!routes.includes(`${net}.`)) return `${net}.0/24`;
  }
}

function writeConfig(state: HostState): void {
  const d = state.dir;
  const cniConf = path.join(d, 'cni', 'net.d');
  fs.mkdirSync(cniConf, { recursive: true });
  // bridge + host-local: one bridge and one /24 per containerd; IPAM state in our dir too.
  fs.writeFileSync(path.join(cniConf, '10-kubespec.conflist'), JSON.stringify({
    cniVersion: '1.0.0', name: `kubespec-${state.bridge}`,
    plugins: [{ type: 'bridge', bridge: state.bridge, isGateway: true, ipMasq: false, hairpinMode: true, ipam: { type: 'host-local', ranges: [[{ subnet: state.subnet }]], dataDir: path.join(d, 'cni', 'ipam') } }],
  }, null, 2));
  const toml = `version = 2
root = "${d}/root"
state = "${d}/state"
disabled_plugins = ["io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.aufs", "io.containerd.tracing.processor.v1.otlp", "io.containerd.internal.v1.tracing"]

[grpc]
  address = "${state.socket}"

[ttrpc]
  address = "${d}/containerd.sock.ttrpc"

[debug]
  address = ""

[metrics]
  address = ""

[plugins."io.containerd.internal.v1.opt"]
  path = "${d}/opt"

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${PAUSE_IMAGE}"
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  enable_selinux = false

[plugins."io.containerd.grpc.v1.cri".containerd]
  snapshotter = "overlayfs"
  default_runtime_name = "runc"

[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
  runtime_type = "io.containerd.runc.v2"

[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
  Root = "${d}/runc"

[plugins."io.containerd.grpc.v1.cri".cni]
  bin_dir = "${cniBinDir()}"
  conf_dir = "${cniConf}"
  max_conf_num = 1
`;
  fs.writeFileSync(path.join(d, 'config.toml'), toml);
}

/** Builds (once per host) and imports the vocabulary into containerd's k8s.io namespace, the one its CRI plugin serves. */
function importImages(state: HostState): void {
  const work = path.join(state.dir, 'images');
  const archive = path.join(work, 'images.tar');
  if (!fs.existsSync(archive)) {
    fs.mkdirSync(work, { recursive: true });
    buildImageArchive(work, vocabulary(PAUSE_IMAGE));
  }
  execFileSync('ctr', ['--address', state.socket, '--namespace', 'k8s.io', 'images', 'import', archive], { stdio: 'pipe' });
}

/** The gRPC health images (~100 MB: a node binary), built and imported once per host, on first need. */
function importGrpcHealthImages(state: HostState): void {
  const work = path.join(state.dir, 'images');
  const archive = path.join(work, 'grpc-images.tar');
  if (fs.existsSync(archive)) return;
  fs.mkdirSync(work, { recursive: true });
  buildGrpcHealthArchive(work);
  execFileSync('ctr', ['--address', state.socket, '--namespace', 'k8s.io', 'images', 'import', archive], { stdio: 'pipe' });
}

/** `ctr` against this containerd: what an operator on the node would run (k8s.io is the CRI plugin's namespace). */
export function ctr(host: ContainerdHost, args: string[]): string {
  return execFileSync('ctr', ['--address', host.state.socket, ...args], { encoding: 'utf8' });
}
