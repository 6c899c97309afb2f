/**
 * Every kubespec command, declared once: its arguments, options (with their help), and what it runs.
 * cli/main.ts turns this table into a commander program; each command's values reach its function
 * keyed by the option's long name (`data-dir`, `no-coverage`), as the command modules expect.
 * The values stay strings: each command validates its own and says how to fix a bad one (UsageError).
 */
import { TARGETS } from '../adapters/registry.ts';
import { claimsCommand } from './claims/command.ts';
import { writeTargetReports } from './report/write.ts';
import { printRunSummary } from './summary.ts';
import { run } from './run.ts';
import { EXIT_FAILURES, EXIT_OK, UsageError } from './usage.ts';

export interface OptionSpec {
  /** commander's flags syntax: '--port <P>', '--ha', '--no-coverage', '-h, --help'. */
  readonly flags: string;
  readonly help: string;
  readonly default?: string;
  /** The only values accepted; anything else is a usage error naming them. */
  readonly choices?: readonly string[];
}

export interface CommandSpec {
  readonly name: string;
  /** Positional arguments in commander's syntax ('<target>', '[names...]'). */
  readonly args?: string;
  readonly summary: string;
  /** More lines shown under the command's --help. */
  readonly details?: string;
  readonly options: readonly OptionSpec[];
  run(values: Record<string, any>, positionals: string[]): Promise<number>;
}

const TARGET_OPTIONS: readonly OptionSpec[] = [
  { flags: '--loader <name>', help: 'how a TypeScript target module is loaded', choices: ['tsx', 'ts-node'] },
  { flags: '--config <file>', help: 'kubespec.config.json/.ts naming targets (default: the one in the current directory)' },
  { flags: '--etcd-endpoints <urls>', help: 'etcd target: use these endpoints (URL,…) instead of starting a cluster' },
  { flags: '--kubeconfig <path>', help: 'kube target: the cluster (default $KUBECONFIG, then ~/.kube/config)' },
  { flags: '--dns-server <host:port>', help: "kube target: the cluster DNS server to query (UDP/TCP; kube-dns's ClusterIP from inside the cluster, or serve's --dns-port); declares cluster.dns" },
];

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'run',
    summary: 'Run the features against a target; write reports under reports/<target>/.',
    details: `A target is a built-in (reference, etcd, cri, kernel, kube), a name in kubespec.config.json/.ts, or a module
(./my-target.ts, .js, or a package) exporting createTarget; see docs/adapters.md.`,
    options: [
      { flags: '--target <name>', help: 'built-in, config name or module', default: 'reference' },
      { flags: '--tags <expr>', help: "cucumber tag expression, e.g. '@raft and not @slow'" },
      { flags: '--name <regex>', help: 'only scenarios whose name matches' },
      { flags: '--seed <n>', help: 'the run seed (a failure prints the one to replay it)' },
      { flags: '--rerun', help: 'only what failed last time' },
      { flags: '--parallel <n>', help: 'cucumber workers; the whole suite on the reference defaults to 2 (1 with --name, --tags or --rerun, and on real targets)' },
      ...TARGET_OPTIONS,
      { flags: '--coverage', help: 'reference: c8 coverage of reference/ into reports/reference/coverage/ (about 40 % more CPU; npm start turns it on)' },
      { flags: '--scenario-budget <s>', help: 'the watchdog: a scenario running longer than S s of wall time fails (default 60 on the reference, 600 elsewhere)' },
      { flags: '--dry-run', help: 'what check-target does: build the target, list what would run' },
      { flags: '--fault <names>', help: 'reference only: inject fault models (docs/faults.md), NAME,…' },
      { flags: '--repeat <n>', help: 'the flake hunt: N runs with fresh seeds; prints every scenario whose outcome changed' },
    ],
    async run(v) {
      if (v.repeat !== undefined) {
        const { runRepeated } = await import('./repeat.ts');
        return (await runRepeated({ ...v, target: v.target, etcdEndpoints: v['etcd-endpoints'], dnsServer: v['dns-server'], scenarioBudget: v['scenario-budget'] }, v.repeat)).exitCode;
      }
      const result = await run({ ...v, target: v.target, etcdEndpoints: v['etcd-endpoints'], dnsServer: v['dns-server'], coverage: v.coverage === true, scenarioBudget: v['scenario-budget'], dryRun: v['dry-run'] });
      return result.exitCode;
    },
  },
  {
    name: 'check-target',
    args: '<target>',
    summary: 'Build the target, open and close one session, list its capabilities and which Rules would run or be not-applicable. Runs nothing.',
    options: TARGET_OPTIONS,
    async run(v, [target]) {
      const result = await run({ ...v, target: target!, etcdEndpoints: v['etcd-endpoints'], dnsServer: v['dns-server'], dryRun: true });
      return result.exitCode;
    },
  },
  {
    name: 'claims',
    summary: 'List every claim (Rule) with its status; --check fails on inventory errors.',
    options: [
      { flags: '--check', help: 'fail on inventory errors (ids, sources, tags)' },
      { flags: '--summary', help: 'counts per component and the last run of each target' },
      { flags: '--format <format>', help: 'output format', default: 'text', choices: ['text', 'json'] },
    ],
    async run(v) {
      return claimsCommand(v);
    },
  },
  {
    name: 'report',
    summary: 'Rebuild reports/<target>/ from its saved message stream (also after a crashed run).',
    options: [{ flags: '--target <name>', help: 'whose saved run', default: 'reference' }],
    async run(v) {
      const report = writeTargetReports(v.target);
      printRunSummary(report, `reports/${v.target}`);
      return report.totals.scenarios.failed > 0 ? EXIT_FAILURES : EXIT_OK;
    },
  },
  {
    name: 'serve',
    summary: 'Run the reference cluster over HTTPS until interrupted; write a kubeconfig with an admin client certificate.',
    options: [
      { flags: '--port <P>', help: 'HTTPS port; 0: any free port', default: '6443' },
      { flags: '--nodes <N>', help: 'kubelets node-1..node-N with the fake container runtime', default: '1' },
      { flags: '--kubeconfig <path>', help: 'where to write the kubeconfig', default: 'kubeconfig.kubespec' },
      { flags: '--insecure-http', help: 'plain HTTP; anonymous requests are admin' },
      { flags: '--data-dir <D>', help: 'keep the store and certificates across restarts (created 0700 and locked: one serve per dir)' },
      { flags: '--retention <D>', help: 'history kept readable before auto-compaction (default 5m; also 90s, 500ms, 1h)' },
      { flags: '--ha', help: 'API servers on machines m1..m3 behind an L4 load balancer over a three-member Raft store, leader-elected controller managers and schedulers, a control endpoint to kill a machine (not with --data-dir)' },
      { flags: '--cloud', help: 'a simulated cloud (msw-served API) and a leader-elected cloud-controller-manager' },
      { flags: '--anonymous-auth <bool>', help: 'false: a request without credentials is 401, not system:anonymous', choices: ['true', 'false'] },
      { flags: '--proxy-mode <M>', help: "kube-proxy's mode on every node", choices: ['iptables', 'ipvs', 'nftables'] },
      { flags: '--oidc-issuer-url <URL>', help: 'accept ID tokens of this OpenID Connect issuer (https; keys from its discovery document)' },
      { flags: '--oidc-client-id <ID>', help: 'the audience ID tokens must be issued to (with --oidc-issuer-url)' },
      { flags: '--oidc-username-claim <C>', help: 'the claim naming the user (default sub)' },
      { flags: '--oidc-username-prefix <P>', help: 'prefix for usernames (default: "<issuer>#" unless the claim is email; "-": none)' },
      { flags: '--oidc-groups-claim <C>', help: "the claim naming the user's groups (a string or a list)" },
      { flags: '--oidc-groups-prefix <P>', help: 'prefix for group names' },
      { flags: '--oidc-ca-file <path>', help: "CA for the issuer's serving certificate (default: the system roots)" },
      { flags: '--dns-port <P>', help: "run the cluster DNS (CoreDNS's kubernetes plugin) on UDP and TCP port P of 127.0.0.1; 0: any free port" },
    ],
    async run(v) {
      const { serve } = await import('./serve.ts');
      return serve(v);
    },
  },
  {
    name: 'bench',
    args: '[names...]',
    summary: 'Run bench/NAME; print figures; write reports/bench/NAME.json.',
    options: [{ flags: '--quick', help: 'a smaller run (for a first look)' }],
    async run(v, names) {
      const { bench } = await import('./bench.ts');
      return bench(names, v);
    },
  },
  {
    name: 'selftest',
    summary: "Run the features on the reference against each fault model and print the Rules that caught it; fails if a fault is caught by none. Writes reports/selftest/.",
    options: [
      { flags: '--fault <names>', help: 'only these fault models, NAME,…' },
      { flags: '--parallel <n>', help: 'fault runs at once' },
      { flags: '--seed <n>', help: 'the run seed' },
      { flags: '--list', help: 'list the fault models and exit' },
    ],
    async run(v) {
      const { selftest } = await import('./selftest.ts');
      return (await selftest(v)).exitCode;
    },
  },
  {
    name: 'test',
    summary: 'Everything npm test runs: typecheck, unit tests, claims check, features; ends with "N passed, N failed".',
    options: [],
    async run() {
      const { testAll } = await import('./test.ts');
      return testAll();
    },
  },
  {
    name: 'matrix',
    summary: 'From every saved run under reports/: one Rule × target table (reports/claims-matrix.md, .html) and reports/conformance-report.yaml, validated against schemas/conformance-report.schema.json.',
    options: [],
    async run() {
      const { matrixCommand } = await import('./matrix.ts');
      return matrixCommand();
    },
  },
  {
    name: 'targets',
    summary: 'List the targets.',
    options: [],
    async run() {
      for (const [name, info] of Object.entries(TARGETS)) console.log(`${name.padEnd(12)} ${info.summary}`);
      // Plug-in targets named in the config file, as cucumber's profiles.
      const { loadConfig } = await import('./config.ts');
      const { file, config } = await loadConfig(process.env.KUBESPEC_CWD ?? '.').catch(() => ({ file: undefined, config: {} as { targets?: Record<string, { module: string }> } }));
      for (const [name, entry] of Object.entries(config.targets ?? {})) console.log(`${name.padEnd(12)} plug-in ${entry.module} (${file})`);
      console.log('or any module: --target ./my-target.ts (see docs/adapters.md)');
      return EXIT_OK;
    },
  },
];

export function findCommand(name: string): CommandSpec {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command "${name}"`, `commands: ${COMMANDS.map((c) => c.name).join(', ')}; see kubespec --help`);
  return command;
}
