/**
 * What the end-to-end tests share: a `kubespec serve` child process (started exactly as a
 * person would, through bin/kubespec.mjs), and kubectl runs with a fresh discovery cache and a
 * time budget. Every wait here is bounded; a test that fails prints serve's own output.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpointFrom } from '../adapters/kube/index.ts';
import { KubeHttpClient } from '../adapters/kube/http-client.ts';

export const PROJECT_DIR = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const KUBESPEC_BIN = join(PROJECT_DIR, 'bin', 'kubespec.mjs');
const LISTENING = /kubespec serve: listening on (https?:\/\/\S+)/;
const START_BUDGET_MS = 60_000;

export interface ServeProcessOptions {
  /** Extra flags after `serve --port 0 --kubeconfig ...`. */
  args?: string[];
  env?: Record<string, string>;
  /** Default: a fresh temp dir's kubeconfig.kubespec. */
  kubeconfigPath?: string;
  /** Default 0 (any free port). */
  port?: number;
}

export interface ServeProcess {
  readonly url: string;
  readonly kubeconfigPath: string;
  readonly child: ChildProcess;
  /** Everything serve printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process is gone. */
  readonly exited: Promise<number | string>;
  /** SIGTERM (clean stop) and wait; SIGKILL if it takes longer than the budget. */
  stop(budget_ms?: number): Promise<number | string>;
  kill(): Promise<number | string>;
}

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `kubespec-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export async function startServeProcess(opts: ServeProcessOptions = {}): Promise<ServeProcess> {
  const own = opts.kubeconfigPath === undefined ? tempDir('serve') : undefined;
  const kubeconfigPath = opts.kubeconfigPath ?? join(own!.path, 'kubeconfig.kubespec');
  const args = [KUBESPEC_BIN, 'serve', '--port', String(opts.port ?? 0), '--kubeconfig', kubeconfigPath, ...(opts.args ?? [])];
  const child = spawn(process.execPath, args, { cwd: PROJECT_DIR, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (c: Buffer) => (text += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (text += c.toString()));
  const exited = new Promise<number | string>((done) =>
    child.once('exit', (code, signal) => {
      own?.remove();
      done(code ?? signal ?? 'unknown');
    }),
  );
  const url = await waitForOutput(() => text, LISTENING, exited, START_BUDGET_MS);
  const stopWith = async (signal: NodeJS.Signals, budget_ms: number) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), budget_ms);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    url,
    kubeconfigPath,
    child,
    output: () => text,
    exited,
    stop: (budget_ms = 10_000) => stopWith('SIGTERM', budget_ms),
    kill: () => stopWith('SIGKILL', 10_000),
  };
}

/** Waits until `pattern` shows up in the output; fails early if the process exits first. */
async function waitForOutput(read: () => string, pattern: RegExp, exited: Promise<unknown>, budget_ms: number): Promise<string> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + budget_ms;
  while (Date.now() < deadline) {
    const match = pattern.exec(read());
    if (match) return match[1]!;
    if (gone) throw new Error(`kubespec serve exited before listening:\n${read()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`kubespec serve did not print "listening on" within ${budget_ms} ms:\n${read()}`);
}

/**
 * Polls `probe` every `every_ms` until it gives a value — anything but undefined or false — and
 * returns it. Real time: these tests drive a `kubespec serve` that runs on the wall clock. After
 * `budget_ms` it fails naming what it waited for, with the end of serve's output when given.
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | false | undefined> | T | false | undefined,
  opts: { budget_ms: number; every_ms: number; serve?: ServeProcess },
): Promise<Exclude<T, false | undefined>> {
  const deadline = Date.now() + opts.budget_ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value as Exclude<T, false | undefined>;
    if (Date.now() > deadline) {
      const output = opts.serve ? `\nserve output (the end):\n${opts.serve.output().slice(-4000)}` : '';
      throw new Error(`timed out after ${opts.budget_ms} ms waiting for ${what}${output}`);
    }
    await new Promise((r) => setTimeout(r, opts.every_ms));
  }
}

/** A REST client for serve's kubeconfig (client certificate, CA), as the kube target builds one. */
export async function clientFor(kubeconfigPath: string): Promise<KubeHttpClient> {
  return new KubeHttpClient(await endpointFrom(kubeconfigPath));
}

export const KUBECTL = process.env.KUBESPEC_KUBECTL ?? '/usr/bin/kubectl';

/** Why kubectl cannot be used here, or undefined when it can. */
export function kubectlMissing(): string | undefined {
  const probe = spawnSync(KUBECTL, ['version', '--client'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.error || probe.status !== 0) return `kubectl is not available at ${KUBECTL} (${probe.error?.message ?? probe.stderr.trim()}); set KUBESPEC_KUBECTL to its path`;
  return undefined;
}

export interface KubectlResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One kubectl run against serve, with a discovery cache of its own (cold, like a first use). */
export function kubectl(args: string[], opts: { kubeconfig: string; cacheDir: string; input?: string; timeout_ms?: number }): Promise<KubectlResult> {
  const child = spawn(KUBECTL, ['--kubeconfig', opts.kubeconfig, '--cache-dir', opts.cacheDir, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(opts.input ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeout_ms ?? 60_000);
  return new Promise((done) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    }),
  );
}

/** Resident set size of a process, from /proc (Linux), in MiB. */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kb) / 1024;
}
