/**
 * `kubespec test` (npm test): every suite the project has, summed into one closing line
 * "N passed, N failed, N skipped" — typecheck, unit and end-to-end tests, the claims check, and
 * the features on every target this machine can run: the reference always, real etcd when its
 * binary is here, the runtime and kubelet features on a real containerd (the cri target) as root
 * with containerd installed, the proxy features with kube-proxy's rules in the real kernel (the
 * kernel target) as root with iptables and nftables, the kube target against a `kubespec serve` process, and `kubespec selftest`
 * (every fault model must be caught by some scenario).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startServeProcess, tempDir } from '../e2e/harness.ts';
import { claimsCommand } from './claims/command.ts';
import { run } from './run.ts';
import { EXIT_FAILURES, EXIT_OK } from './usage.ts';

interface Tally {
  suite: string;
  passed: number;
  failed: number;
  skipped: number;
}

const UNIT_COUNTS = path.join('reports', 'unit-tests.json');

export async function testAll(): Promise<number> {
  const tallies: Tally[] = [];
  tallies.push(await single('typecheck', () => spawnStatus(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit'])));
  tallies.push(await unitTests());
  tallies.push(await single('claims check', async () => claimsCommand({ check: true }) === EXIT_OK));
  for (const target of featureTargets()) {
    console.log(`\n== features on ${target} ==`);
    const result = await run({ target, coverage: target === 'reference' });
    tallies.push({ suite: `features (${target})`, passed: result.passed, failed: result.failed, skipped: result.skipped });
  }
  tallies.push(...(await criTarget()));
  tallies.push(...(await kernelTarget()));
  tallies.push(await kubeTargetAgainstServe());
  if (featureTargets.hasEtcd) tallies.push(...(await pluginExample()));
  tallies.push(await selftestTally());
  return closingLine(tallies);
}

/**
 * The `kube` target — the adapter for any cluster — against `kubespec serve` started as a
 * separate process and reached only through the kubeconfig it wrote (HTTPS, its CA, the admin
 * client certificate), as it would reach a real cluster.
 */
async function kubeTargetAgainstServe(): Promise<Tally> {
  console.log('\n== features on kube (against kubespec serve) ==');
  const scratch = tempDir('kube-target');
  let serve: Awaited<ReturnType<typeof startServeProcess>> | undefined;
  try {
    // With its cluster DNS (--dns-port), which the kube target is pointed at (--dns-server): the DNS features run too.
    serve = await startServeProcess({ kubeconfigPath: path.join(scratch.path, 'kubeconfig.kubespec'), args: ['--dns-port', '0'] });
    const dnsServer = /cluster DNS on (\S+) \(UDP and TCP\)/.exec(serve.output())?.[1];
    // serve runs on this machine, so it reaches the suite's loopback webhook server (kube.crd.conversion-webhook).
    process.env.KUBESPEC_WEBHOOK_HOST ??= '127.0.0.1';
    const result = await run({ target: 'kube', kubeconfig: serve.kubeconfigPath, ...(dnsServer ? { dnsServer } : {}), coverage: false });
    return { suite: 'features (kube)', passed: result.passed, failed: result.failed, skipped: result.skipped };
  } catch (error) {
    console.error(`kubespec test: the kube target could not run against kubespec serve: ${(error as Error).message}`);
    return { suite: 'features (kube)', passed: 0, failed: 1, skipped: 0 };
  } finally {
    await serve?.stop();
    scratch.remove();
  }
}

/**
 * The cri target — the reference's kubelet on a real containerd over CRI gRPC — on the runtime,
 * kubelet and practices features (memory limits and eviction in real cgroups), where it can run: as root with containerd, runc, busybox-static and the
 * CNI plugins installed (CI installs them). Real time: three workers, each with its own containerd.
 */
async function criTarget(): Promise<Tally[]> {
  const { containerdUnavailable } = await import('../adapters/cri/host/containerd.ts');
  const why = containerdUnavailable();
  if (why) {
    console.log(`kubespec test: the cri target is not run here: ${why}`);
    return [];
  }
  console.log('\n== features on cri (the kubelet on a real containerd) ==');
  const result = await run({ target: 'cri', tags: '@component:runtime or @component:kubelet or @component:practices', parallel: '3', coverage: false })
    .catch((error: Error) => (console.error(`kubespec test: ${error.message}`), { passed: 0, failed: 1, skipped: 0 }));
  return [{ suite: 'features (cri)', passed: result.passed, failed: result.failed, skipped: result.skipped }];
}

/**
 * The kernel target — kube-proxy's iptables and nftables rules in the real kernel, real packets to
 * real backends — on the proxy features, where it can run: as root with iproute2, iptables and
 * nftables (CI installs them). Two workers, each with its own network namespaces.
 */
async function kernelTarget(): Promise<Tally[]> {
  const { kernelUnavailable } = await import('../adapters/kernel/host/network.ts');
  const why = kernelUnavailable();
  if (why) {
    console.log(`kubespec test: the kernel target is not run here: ${why}`);
    return [];
  }
  console.log('\n== features on kernel (kube-proxy\'s rules in the real kernel) ==');
  const result = await run({ target: 'kernel', tags: '@component:proxy', parallel: '2', coverage: false })
    .catch((error: Error) => (console.error(`kubespec test: ${error.message}`), { passed: 0, failed: 1, skipped: 0 }));
  return [{ suite: 'features (kernel)', passed: result.passed, failed: result.failed, skipped: result.skipped }];
}

/**
 * The worked plug-in example (examples/etcd-gateway-target: the kv contract over etcd's JSON
 * gateway, starting its own etcd), loaded from outside as a user would: through tsx, and through
 * ts-node, which type-checks it against kubespec/contract first (the real-time auto-compaction
 * scenario runs once, on the tsx path).
 */
const EXAMPLE_DIR = path.join('examples', 'etcd-gateway-target');

async function pluginExample(): Promise<Tally[]> {
  const tallies: Tally[] = [];
  for (const loader of ['tsx', 'ts-node'] as const) {
    console.log(`\n== features on the plug-in example (etcd-gateway, --loader ${loader}) ==`);
    // tsx: the module by path; ts-node: by its name in the example's config file, as a user would.
    const how = loader === 'tsx'
      ? { target: path.resolve(EXAMPLE_DIR, 'index.ts') }
      : { target: 'gateway-ts-node', config: path.resolve(EXAMPLE_DIR, 'kubespec.config.json'), tags: 'not @slow' };
    const result = await run({ ...how, coverage: false })
      .catch((error: Error) => (console.error(`kubespec test: ${error.message}`), { passed: 0, failed: 1, skipped: 0 }));
    tallies.push({ suite: `features (gateway, ${loader})`, passed: result.passed, failed: result.failed, skipped: result.skipped });
  }
  return tallies;
}

/** `kubespec selftest`: one passed per fault model some scenario caught, one failed per fault none did. */
async function selftestTally(): Promise<Tally> {
  console.log('\n== selftest (fault models on the reference) ==');
  const { selftest } = await import('./selftest.ts');
  const result = await selftest();
  return { suite: 'selftest (faults)', passed: result.passed, failed: result.failed, skipped: 0 };
}

/** The reference always; etcd where the binary is installed (CI installs it). */
function featureTargets(): string[] {
  const targets = ['reference'];
  featureTargets.hasEtcd = spawnSync('etcd', ['--version']).status === 0;
  if (featureTargets.hasEtcd) targets.push('etcd');
  else console.log('kubespec test: etcd is not installed here, so the etcd target is not run (apt-get install etcd-server etcd-client)');
  return targets;
}

featureTargets.hasEtcd = false;

async function single(suite: string, check: () => Promise<boolean>): Promise<Tally> {
  console.log(`\n== ${suite} ==`);
  const ok = await check();
  return { suite, passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 };
}

async function unitTests(): Promise<Tally> {
  console.log('\n== unit tests ==');
  const files = testFiles(['contract', 'reference', 'lincheck', 'adapters', 'cli', 'bench', 'e2e']);
  fs.mkdirSync('reports', { recursive: true });
  fs.rmSync(UNIT_COUNTS, { force: true });
  const ok = await spawnStatus(process.execPath, [
    '--import', 'tsx', '--test',
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=./cli/test-counter.mjs', `--test-reporter-destination=${UNIT_COUNTS}`,
    ...files,
  ]);
  const counts = fs.existsSync(UNIT_COUNTS) ? (JSON.parse(fs.readFileSync(UNIT_COUNTS, 'utf8')) as Omit<Tally, 'suite'>) : undefined;
  if (!counts) return { suite: 'unit tests', passed: 0, failed: 1, skipped: 0 };
  // A crashed test file may leave no failing test event; the exit status still counts.
  return { suite: 'unit tests', passed: counts.passed, failed: counts.failed + (ok || counts.failed ? 0 : 1), skipped: counts.skipped };
}

function testFiles(dirs: string[]): string[] {
  return dirs
    .filter((d) => fs.existsSync(d))
    .flatMap((d) => (fs.readdirSync(d, { recursive: true }) as string[]).map((f) => path.join(d, f)))
    .filter((f) => f.endsWith('.test.ts') && !f.includes('node_modules'))
    .sort();
}

function spawnStatus(command: string, args: string[]): Promise<boolean> {
  const child = spawn(command, args, { stdio: 'inherit' });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code === 0)));
}

function closingLine(tallies: Tally[]): number {
  console.log('');
  for (const t of tallies) console.log(`  ${t.suite.padEnd(22)} ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
  const sum = (key: 'passed' | 'failed' | 'skipped') => tallies.reduce((n, t) => n + t[key], 0);
  const line = `${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped`;
  fs.writeFileSync(path.join('reports', 'summary.txt'), `${line}\n`);
  console.log(line);
  return sum('failed') > 0 ? EXIT_FAILURES : EXIT_OK;
}
