/**
 * Which target `--target X` means. In order: a built-in target (reference, etcd, kube); a
 * target named in the config file (`kubespec.config.json` or `kubespec.config.ts` where the
 * command runs, or --config PATH), as cucumber's profiles; a module path or package name.
 *
 * A config file:
 *   { "targets": { "mystore": { "module": "./my-target.ts", "options": { ... }, "loader": "ts-node" } } }
 * (`kubespec.config.ts` default-exports the same object). `module` is relative to the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TARGETS, type TargetInfo } from '../adapters/registry.ts';
import { looksLikeModule, resolvePluginModule, TargetConfigError, type PluginLoader } from '../adapters/plugin.ts';

export interface ConfiguredTarget {
  module: string;
  options?: Record<string, unknown>;
  loader?: PluginLoader;
}

export interface KubespecConfig {
  targets?: Record<string, ConfiguredTarget>;
}

export const CONFIG_FILES = ['kubespec.config.json', 'kubespec.config.ts'];

/** What the CLI hands to the run: the environment that makes every process build this target. */
export interface ResolvedTarget {
  /** As the person typed it, for replay commands. */
  spec: string;
  builtin?: TargetInfo;
  /** Environment for the target's processes (KUBESPEC_TARGET_MODULE, …); empty for a built-in. */
  env: Record<string, string>;
}

export async function resolveTarget(spec: string, opts: { cwd: string; config?: string; loader?: string }): Promise<ResolvedTarget> {
  const loader = parseLoader(opts.loader);
  const builtin = TARGETS[spec];
  if (builtin) {
    if (opts.loader) throw new TargetConfigError(`--loader applies to plug-in targets, not the built-in "${spec}"`);
    return { spec, builtin, env: {} };
  }
  const config = await loadConfig(opts.cwd, opts.config);
  const entry = config.file ? config.config.targets?.[spec] : undefined;
  if (entry) {
    if (typeof entry.module !== 'string') throw new TargetConfigError(`target "${spec}" in ${config.file} has no "module"`, 'e.g. { "targets": { "mystore": { "module": "./my-target.ts" } } }');
    const file = resolvePluginModule(entry.module, path.dirname(config.file!));
    return pluginTarget(spec, file, entry.options ?? {}, loader ?? parseLoader(entry.loader) ?? 'tsx');
  }
  if (looksLikeModule(spec) || fs.existsSync(path.resolve(opts.cwd, spec))) {
    return pluginTarget(spec, resolvePluginModule(spec, opts.cwd), {}, loader ?? 'tsx');
  }
  // Perhaps an installed package: resolvePluginModule says so if it is not.
  const known = [...Object.keys(TARGETS), ...Object.keys(config.config.targets ?? {})];
  try {
    return pluginTarget(spec, resolvePluginModule(spec, opts.cwd), {}, loader ?? 'tsx');
  } catch {
    throw new TargetConfigError(`unknown target "${spec}"`, `choose one of: ${known.join(', ')}; or pass a module path (./my-target.ts) or an installed package name`);
  }
}

function pluginTarget(spec: string, file: string, options: Record<string, unknown>, loader: PluginLoader): ResolvedTarget {
  return {
    spec,
    env: {
      KUBESPEC_TARGET_SPEC: spec,
      KUBESPEC_TARGET_MODULE: file,
      KUBESPEC_TARGET_OPTIONS: JSON.stringify(options),
      KUBESPEC_TARGET_LOADER: loader,
    },
  };
}

function parseLoader(text: string | undefined): PluginLoader | undefined {
  if (text === undefined) return undefined;
  if (text === 'tsx' || text === 'ts-node') return text;
  throw new TargetConfigError(`--loader must be tsx or ts-node, got "${text}"`);
}

export async function loadConfig(cwd: string, explicit?: string): Promise<{ file?: string; config: KubespecConfig }> {
  const file = explicit ? path.resolve(cwd, explicit) : CONFIG_FILES.map((f) => path.join(cwd, f)).find((f) => fs.existsSync(f));
  if (!file) return { config: {} };
  if (!fs.existsSync(file)) throw new TargetConfigError(`no config file at ${file}`);
  try {
    const config = file.endsWith('.json')
      ? (JSON.parse(fs.readFileSync(file, 'utf8')) as KubespecConfig)
      : (((await import(pathToFileURL(file).href)) as { default: KubespecConfig }).default);
    return { file, config: config ?? {} };
  } catch (error) {
    throw new TargetConfigError(`cannot read ${file}: ${(error as Error).message}`);
  }
}
