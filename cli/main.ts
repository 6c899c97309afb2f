/** The kubespec command line: parse, dispatch, and turn errors into exit codes. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { TARGETS } from '../adapters/registry.ts';
import { claimsCommand } from './claims/command.ts';
import { writeTargetReports } from './report/write.ts';
import { printRunSummary } from './summary.ts';
import { run } from './run.ts';
import { commandUsage, EXIT_FAILURES, EXIT_OK, EXIT_USAGE, USAGE, UsageError } from './usage.ts';

type Options = ParseArgsConfig['options'];

const COMMANDS: Record<string, { options: Options; positionals?: boolean; run(values: any, positionals: string[]): Promise<number> }> = {
  run: {
    options: {
      target: { type: 'string', default: 'reference' },
      tags: { type: 'string' },
      name: { type: 'string' },
      seed: { type: 'string' },
      rerun: { type: 'boolean' },
      parallel: { type: 'string' },
      'etcd-endpoints': { type: 'string' },
      kubeconfig: { type: 'string' },
      'no-coverage': { type: 'boolean' },
      'scenario-budget': { type: 'string' },
      loader: { type: 'string' },
      config: { type: 'string' },
      'dry-run': { type: 'boolean' },
      fault: { type: 'string' },
      repeat: { type: 'string' },
    },
    async run(v) {
      if (v.repeat !== undefined) {
        const { runRepeated } = await import('./repeat.ts');
        return (await runRepeated({ ...v, etcdEndpoints: v['etcd-endpoints'], scenarioBudget: v['scenario-budget'] }, v.repeat)).exitCode;
      }
      const result = await run({ ...v, etcdEndpoints: v['etcd-endpoints'], coverage: !v['no-coverage'], scenarioBudget: v['scenario-budget'], dryRun: v['dry-run'] });
      return result.exitCode;
    },
  },
  'check-target': {
    options: { loader: { type: 'string' }, config: { type: 'string' }, 'etcd-endpoints': { type: 'string' }, kubeconfig: { type: 'string' } },
    positionals: true,
    async run(v, positionals) {
      if (positionals.length !== 1) throw new UsageError('check-target takes one target', 'e.g. kubespec check-target ./my-target.ts');
      const result = await run({ ...v, target: positionals[0]!, etcdEndpoints: v['etcd-endpoints'], dryRun: true });
      return result.exitCode;
    },
  },
  claims: {
    options: { check: { type: 'boolean' }, summary: { type: 'boolean' }, format: { type: 'string', default: 'text' } },
    async run(v) {
      if (v.format !== 'text' && v.format !== 'json') throw new UsageError(`--format must be text or json, got "${v.format}"`);
      return claimsCommand(v);
    },
  },
  report: {
    options: { target: { type: 'string', default: 'reference' } },
    async run(v) {
      const report = writeTargetReports(v.target);
      printRunSummary(report, `reports/${v.target}`);
      return report.totals.scenarios.failed > 0 ? EXIT_FAILURES : EXIT_OK;
    },
  },
  matrix: {
    options: {},
    async run() {
      const { matrixCommand } = await import('./matrix.ts');
      return matrixCommand();
    },
  },
  targets: {
    options: {},
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
  serve: {
    options: {
      port: { type: 'string', default: '6443' },
      nodes: { type: 'string', default: '1' },
      kubeconfig: { type: 'string', default: 'kubeconfig.kubespec' },
      'insecure-http': { type: 'boolean' },
      'data-dir': { type: 'string' },
      retention: { type: 'string' },
      ha: { type: 'boolean' },
      cloud: { type: 'boolean' },
      'anonymous-auth': { type: 'string' },
      'proxy-mode': { type: 'string' },
    },
    async run(v) {
      const { serve } = await import('./serve.ts');
      return serve(v);
    },
  },
  bench: {
    options: { quick: { type: 'boolean' } },
    positionals: true,
    async run(v, positionals) {
      const { bench } = await import('./bench.ts');
      return bench(positionals, v);
    },
  },
  selftest: {
    options: { fault: { type: 'string' }, parallel: { type: 'string' }, seed: { type: 'string' }, list: { type: 'boolean' } },
    async run(v) {
      const { selftest } = await import('./selftest.ts');
      return (await selftest(v)).exitCode;
    },
  },
  test: {
    options: {},
    async run() {
      const { testAll } = await import('./test.ts');
      return testAll();
    },
  },
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    console.log(USAGE);
    return name ? EXIT_OK : EXIT_USAGE;
  }
  try {
    // `kubespec help NAME` is `kubespec NAME --help`.
    const [commandName, args] = name === 'help' ? [rest[0]!, ['--help']] : [name, rest];
    const command = COMMANDS[commandName];
    if (!command) throw new UsageError(`unknown command "${commandName}"`, `commands: ${Object.keys(COMMANDS).join(', ')}; see kubespec --help`);
    const { values, positionals } = parseOptions({ ...command.options, ...HELP_OPTION }, args, command.positionals ?? false) as { values: Record<string, unknown>; positionals: string[] };
    if (values.help) {
      console.log(commandUsage(commandName));
      return EXIT_OK;
    }
    delete values.help;
    return await command.run(values, positionals);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`kubespec: ${error.message}${error.hint ? `\n  ${error.hint}` : ''}`);
      return EXIT_USAGE;
    }
    throw error;
  }
}

/** Every command answers --help / -h with its own usage (exit 0), as kubectl's subcommands do. */
const HELP_OPTION: Options = { help: { type: 'boolean', short: 'h' } };

function parseOptions(options: Options, args: string[], allowPositionals: boolean) {
  try {
    return parseArgs({ options, args, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message, 'see kubespec --help');
  }
}
