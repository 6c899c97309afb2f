/** Usage errors: exit code 2 and a message that says how to fix it. */
export class UsageError extends Error {
  constructor(message: string, readonly hint?: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const EXIT_OK = 0;
export const EXIT_FAILURES = 1;
export const EXIT_USAGE = 2;

/** Each command's own usage: what `kubespec NAME --help` prints (and a section of USAGE). */
export const COMMAND_USAGE: Record<string, string> = {
  run: `  kubespec run [--target NAME] [--tags EXPR] [--name REGEX] [--seed N] [--rerun] [--parallel N]
               [--etcd-endpoints URL,...] [--kubeconfig PATH] [--no-coverage] [--scenario-budget S]
               [--loader tsx|ts-node] [--config FILE] [--dry-run] [--fault NAME,...] [--repeat N]
      Run the features against a target; write reports under reports/<target>/. A target is a
      built-in (reference, etcd, kube), a name in kubespec.config.json/.ts, or a module
      (./my-target.ts, .js, or a package) exporting createTarget; see docs/adapters.md.
      --dry-run: what check-target does.
      --parallel N: cucumber workers; the whole suite on the reference defaults to 2 (1 with
      --name, --tags or --rerun, and on real targets).
      --fault (reference only): inject fault models (docs/faults.md) — a wrong reference the suite must reject.
      --repeat N: run N times with fresh seeds; print every scenario whose outcome changed, with seeds for both.`,
  'check-target': `  kubespec check-target TARGET [--loader tsx|ts-node] [--config FILE]
      Build the target, open and close one session, list its capabilities and which Rules
      would run or be not-applicable. Runs nothing.`,
  claims: `  kubespec claims [--check] [--summary] [--format text|json]
      List every claim (Rule) with its status; --check fails on inventory errors.`,
  report: `  kubespec report [--target NAME]
      Rebuild reports/<target>/ from its saved message stream (also after a crashed run).`,
  serve: `  kubespec serve [--port P] [--nodes N] [--kubeconfig PATH] [--insecure-http] [--data-dir D]
                 [--anonymous-auth=false] [--ha] [--cloud] [--proxy-mode M] [--retention D]
      Run the reference cluster over HTTPS until interrupted; write a kubeconfig with an admin
      client certificate. --port 0: any free port. --insecure-http: plain HTTP, and anonymous
      requests are admin. --data-dir: keep the store and certificates across restarts (the dir
      is created 0700 and locked: one serve per data dir).
      --anonymous-auth=false: a request without credentials is 401, not system:anonymous.
      --ha: API servers on machines m1..m3 behind an L4 load balancer (the kubeconfig's server),
      leader-elected controller managers, and a loopback control endpoint to kill a machine.
      --cloud: a simulated cloud (msw-served API) and a leader-elected cloud-controller-manager.
      --proxy-mode: kube-proxy's mode on every node, iptables (default), ipvs or nftables.
      --retention D: history kept readable before auto-compaction (default 5m; also 90s, 500ms, 1h).`,
  bench: `  kubespec bench NAME [--quick]
      Run bench/NAME; print figures; write reports/bench/NAME.json.`,
  selftest: `  kubespec selftest [--fault NAME,...] [--parallel N] [--seed N] [--list]
      Run the features on the reference against each fault model and print the Rules that caught it;
      fails if a fault is caught by none. Writes reports/selftest/ (Rule × fault table).`,
  test: `  kubespec test
      Everything npm test runs: typecheck, unit tests, claims check, features; ends with "N passed, N failed".`,
  matrix: `  kubespec matrix
      From every saved run under reports/ (reports/<target>/messages.ndjson): one Rule × target
      table (reports/claims-matrix.md, .html) and one combined reports/conformance-report.yaml,
      validated against schemas/conformance-report.schema.json.`,
  targets: `  kubespec targets
      List the targets.`,
};

const EXIT_CODES = 'Exit codes: 0 nothing failed, 1 failures, 2 usage or configuration error.';

export const USAGE = `kubespec — a literate conformance suite for the Kubernetes architecture

Usage:
${Object.values(COMMAND_USAGE).join('\n')}
  kubespec COMMAND --help
      One command's usage.

${EXIT_CODES}`;

/** `kubespec NAME --help`: that command's usage alone. */
export function commandUsage(name: string): string {
  return `Usage:\n${COMMAND_USAGE[name]}\n\n${EXIT_CODES}`;
}
