/**
 * What a fake container does, read from its image and command — the small vocabulary the
 * README documents. Two dialects, so a scenario can be written either way:
 *
 * - `kubespec/<behaviour>` images, whatever the command:
 *   `kubespec/exit:CODE:AFTER_S` exits CODE after AFTER_S seconds; `kubespec/http:STATUS[:PORT]`
 *   answers every HTTP GET on PORT (default 8080) with STATUS (a redirect code — 301, 302, 303, 307, 308 — points Location at another
 *   host); `kubespec/slow:SECONDS[:PORT]` answers 200 after SECONDS; `kubespec/tcp[:PORT]` accepts TCP on PORT (default 9000) and closes at once;
 *   `kubespec/grpc-health:STATUS[:PORT]` serves the gRPC health service (grpc.health.v1.Health)
 *   on PORT (default 9090), answering STATUS (SERVING, NOT_SERVING, …) for every service;
 *   `kubespec/hang` runs for ever, ignores SIGTERM and answers nothing; `kubespec/oom` allocates
 *   past its memory limit and is OOM-killed after one second; `kubespec/alloc:SIZE` (e.g. 256Mi)
 *   allocates SIZE after one second and holds it: OOM-killed if that is past its memory limit,
 *   running for ever otherwise (no limit: nothing stops it).
 * - busybox-like commands, so the same scenario runs on a real runtime: `sleep N`,
 *   `sh -c 'S1; S2; ...'` with statements `sleep N`, `exit C`, `true`, `false`, `echo TEXT`,
 *   `touch F`, `rm [-f] F`, `cat F`, `test -f F`, `readlink /proc/self/ns/{net,ipc,pid}` (the
 *   namespace, as `net:[4026531993]`), `httpd -f -p PORT` (serves its files, 200 or
 *   404, for ever), `trap '...' TERM` with `CMD & wait` (a SIGTERM handler: exit 143; with a foreground command
 *   instead of `wait`, sh runs the trap only when that command ends). Without a trap, as PID 1 these have no SIGTERM handler, so a stop waits for SIGKILL, as on
 *   Linux. Any other image with no command runs for ever and ends on SIGTERM.
 *
 * Images whose registry host ends in `.invalid` cannot be pulled (ErrImagePull).
 */

export type Step =
  | { op: 'sleep'; seconds: number }
  | { op: 'exit'; code: number }
  | { op: 'echo'; text: string }
  | { op: 'touch'; path: string }
  | { op: 'rm'; path: string }
  | { op: 'cat'; path: string }
  | { op: 'serve'; port: number; http?: { status?: number; delay_s?: number }; /** A gRPC health server answering this status (SERVING, NOT_SERVING, …). */ grpc?: string }
  | { op: 'forever' }
  | { op: 'oom' }
  /** Allocate and hold `bytes` of memory: past the container's memory limit the kernel OOM-kills it. */
  | { op: 'alloc'; bytes: number }
  | { op: 'readlink'; path: string }
  | { op: 'unknown'; text: string };

export interface Program {
  steps: Step[];
  /** Ends at once on SIGTERM (exit 143); otherwise only SIGKILL stops it (exit 137). */
  handlesTerm: boolean;
}

export function imageMissing(image: string): boolean {
  const first = image.split('/')[0] ?? '';
  return image.includes('/') && first.endsWith('.invalid');
}

/** The program of a container: its image's behaviour, else its command line. */
export function programOf(image: string, argv: string[]): Program {
  const vocab = imageProgram(image);
  if (vocab) return vocab;
  if (argv.length === 0) return { steps: isBusybox(image) ? [] : [{ op: 'forever' }], handlesTerm: !isBusybox(image) };
  // `trap ... TERM` gives the shell a SIGTERM handler, but POSIX sh runs a trap only after the
  // foreground command ends ("the trap ... shall not be executed until after the foreground
  // command has completed"; `wait` returns at once instead: Shell Command Language § 2.11). So
  // the shell ends on SIGTERM (exit 143) only while it `wait`s on a background job (`CMD & wait`).
  const traps = argv.some((w) => /\btrap\b[^;]*\bTERM\b/.test(w)) && argv.some((w) => /&\s*wait\b/.test(w));
  return { steps: commandSteps(argv).filter((s) => !(s.op === 'unknown' && s.text.startsWith('trap'))), handlesTerm: traps };
}

function isBusybox(image: string): boolean {
  return /(^|\/)busybox(:|@|$)/.test(image);
}

function imageProgram(image: string): Program | undefined {
  const m = /^(?:[^/]+\/)*kubespec\/([a-z]+(?:-[a-z]+)?)(?::(.*))?$/.exec(image);
  if (!m) return undefined;
  const args = (m[2] ?? '').split(':').filter((a) => a !== '');
  const n = (i: number, fallback: number) => (args[i] !== undefined && /^\d+$/.test(args[i]!) ? Number(args[i]) : fallback);
  switch (m[1]) {
    case 'exit':
      return { steps: [{ op: 'sleep', seconds: n(1, 0) }, { op: 'exit', code: n(0, 0) }], handlesTerm: true };
    case 'http':
      return { steps: [{ op: 'serve', port: n(1, 8080), http: { status: n(0, 200) } }], handlesTerm: true };
    case 'slow':
      return { steps: [{ op: 'serve', port: n(1, 8080), http: { delay_s: n(0, 5) } }], handlesTerm: true };
    case 'tcp':
      return { steps: [{ op: 'serve', port: n(0, 9000) }], handlesTerm: true };
    case 'grpc-health':
      // The gRPC health service (grpc.health.v1) answering STATUS (SERVING, NOT_SERVING, …) on PORT (9090).
      return /^[A-Z_]+$/.test(args[0] ?? '') ? { steps: [{ op: 'serve', port: n(1, 9090), grpc: args[0]! }], handlesTerm: true } : undefined;
    case 'hang':
      return { steps: [{ op: 'forever' }], handlesTerm: false };
    case 'oom':
      return { steps: [{ op: 'sleep', seconds: 1 }, { op: 'oom' }], handlesTerm: true };
    case 'alloc': {
      const bytes = quantityBytes(args[0] ?? '');
      return bytes === undefined ? undefined : { steps: [{ op: 'sleep', seconds: 1 }, { op: 'alloc', bytes }, { op: 'forever' }], handlesTerm: true };
    }
    default:
      return undefined;
  }
}

/** "256Mi", "1Gi", "64M", "1000" → bytes (binary and decimal suffixes, as resource quantities). */
function quantityBytes(text: string): number | undefined {
  const m = /^(\d+)(Ki|Mi|Gi|K|M|G)?$/.exec(text);
  if (!m) return undefined;
  const unit: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, K: 1e3, M: 1e6, G: 1e9 };
  return Number(m[1]) * (m[2] ? unit[m[2]]! : 1);
}

/** `sh -c 'script'`, or a single command line. */
export function commandSteps(argv: string[]): Step[] {
  if ((argv[0] === 'sh' || argv[0] === '/bin/sh') && argv[1] === '-c') return scriptSteps(argv.slice(2).join(' '));
  return [statement(argv)];
}

export function scriptSteps(script: string): Step[] {
  return script.split(/;|&&|\n/).map((s) => s.trim()).filter((s) => s !== '').map((s) => statement(words(s)));
}

function words(text: string): string[] {
  return (text.match(/'[^']*'|"[^"]*"|\S+/g) ?? []).map((w) => w.replace(/^['"]|['"]$/g, ''));
}

function statement(w: string[]): Step {
  const [cmd, ...rest] = w;
  const num = (s: string | undefined) => (s !== undefined && /^\d+(\.\d+)?$/.test(s) ? Number(s) : NaN);
  switch (cmd) {
    case 'sleep':
      return Number.isFinite(num(rest[0])) ? { op: 'sleep', seconds: num(rest[0]) } : { op: 'unknown', text: w.join(' ') };
    case 'exit':
      return { op: 'exit', code: Number.isFinite(num(rest[0])) ? num(rest[0]) : 0 };
    case 'true':
      return { op: 'sleep', seconds: 0 };
    case 'false':
      return { op: 'exit', code: 1 };
    case 'echo':
      return { op: 'echo', text: rest.join(' ') };
    case 'touch':
      return { op: 'touch', path: rest[0] ?? '' };
    case 'rm':
      return { op: 'rm', path: rest.filter((a) => !a.startsWith('-'))[0] ?? '' };
    case 'cat':
      return { op: 'cat', path: rest[0] ?? '' };
    case 'test':
      return rest[0] === '-f' || rest[0] === '-e' ? { op: 'cat', path: rest[1] ?? '' } : { op: 'unknown', text: w.join(' ') };
    case 'readlink':
      return { op: 'readlink', path: rest.filter((a) => !a.startsWith('-'))[0] ?? '' };
    case 'httpd': {
      const p = rest.indexOf('-p');
      return { op: 'serve', port: p >= 0 ? num(rest[p + 1]) || 80 : 80, http: {} };
    }
    default:
      return { op: 'unknown', text: w.join(' ') };
  }
}
