/**
 * Plug-in targets: a module from outside the project (a path or an installed package) whose
 * `createTarget` export, or default export, builds a Target from the options it is given.
 *
 * The CLI resolves the module to an absolute file once and passes it to cucumber's worker
 * processes in the environment (KUBESPEC_TARGET_MODULE, _OPTIONS, _LOADER), so every process
 * builds the same target. Everything wrong with a plug-in — a missing file, no factory, a
 * factory that does not build a Target, a contract version the suite does not speak, a
 * capability the vocabulary does not know — is a TargetConfigError, which the CLI answers with
 * exit 2 and a hint, before any scenario runs.
 */
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isCapability } from '../contract/capabilities.ts';
import { CONTRACT_VERSION, type Target } from '../contract/contract.ts';
import * as publishedContract from '../contract/index.ts';

/** How a TypeScript plug-in is loaded: tsx (no type check), or ts-node (type-checked against the contract). */
export type PluginLoader = 'tsx' | 'ts-node';

export interface PluginSpec {
  /** An absolute file, or a package name resolvable from `from`. */
  module: string;
  options: Record<string, unknown>;
  loader: PluginLoader;
}

/** The context a plug-in factory gets besides its options. */
export interface PluginContext {
  /** The name the target was asked for by (a config entry, or the module path). */
  name: string;
  contractVersion: string;
}

export type TargetFactory = (options: Record<string, unknown>, ctx: PluginContext) => Target | Promise<Target>;

/** A plug-in that cannot be used as given: the CLI exits 2 with the message and the hint. */
export class TargetConfigError extends Error {
  constructor(message: string, readonly hint?: string) {
    super(message);
    this.name = 'TargetConfigError';
  }
}

/** Does `--target X` name a module rather than a built-in or configured target? */
export function looksLikeModule(spec: string): boolean {
  return /^(\.{1,2}\/|\/)/.test(spec) || /\.(c|m)?(t|j)s$/.test(spec) || spec.startsWith('@');
}

/** A path (relative to `cwd`) or a package name (resolved from `cwd`) → an absolute file. */
export function resolvePluginModule(spec: string, cwd: string): string {
  if (/^(\.{1,2}\/|\/)/.test(spec) || /\.(c|m)?(t|j)s$/.test(spec)) {
    const file = path.resolve(cwd, spec);
    if (!fs.existsSync(file)) throw new TargetConfigError(`no target module at ${file}`, 'pass a path to a .ts/.js file, or the name of an installed package');
    return fs.statSync(file).isDirectory() ? resolveDirectory(file) : file;
  }
  try {
    return createRequire(path.join(cwd, 'noop.js')).resolve(spec);
  } catch {
    throw new TargetConfigError(`cannot find the target package "${spec}" from ${cwd}`, `npm install ${spec}, or pass a path such as ./my-target.ts`);
  }
}

function resolveDirectory(dir: string): string {
  for (const name of ['index.ts', 'index.mts', 'index.js', 'index.mjs']) {
    if (fs.existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  throw new TargetConfigError(`${dir} is a directory without an index.ts or index.js`);
}

export async function createPluginTarget(spec: PluginSpec, name: string): Promise<Target> {
  const mod = spec.loader === 'ts-node' ? loadWithTsNode(spec.module) : await importModule(spec.module);
  const factory = factoryOf(mod);
  if (!factory) {
    throw new TargetConfigError(`${spec.module} exports no target factory`, 'export `createTarget(options)` or a default function that returns a Target (see docs/adapters.md)');
  }
  const target = await factory(spec.options, { name, contractVersion: CONTRACT_VERSION });
  checkTarget(target, spec.module);
  return target;
}

async function importModule(file: string): Promise<unknown> {
  try {
    return await import(path.isAbsolute(file) ? pathToFileURL(file).href : file);
  } catch (error) {
    throw new TargetConfigError(`cannot load the target module ${file}: ${(error as Error).message}`);
  }
}

/** createTarget, or a default function; CommonJS modules arrive with module.exports as default. */
function factoryOf(mod: unknown): TargetFactory | undefined {
  const m = mod as Record<string, any> | undefined;
  const candidates = [m?.createTarget, m?.default, m?.default?.createTarget, m?.default?.default];
  return candidates.find((c) => typeof c === 'function') as TargetFactory | undefined;
}

/** The checks a target must pass before any scenario runs. */
export function checkTarget(target: Target | undefined, from: string): void {
  const t = target as Partial<Target> | undefined;
  const lacks = ['name', 'capabilities', 'knownDeviations', 'start', 'openSession', 'stop'].filter((k) => !t || (t as Record<string, unknown>)[k] === undefined);
  if (!t || lacks.length > 0) throw new TargetConfigError(`the factory in ${from} did not return a Target: it lacks ${lacks.join(', ')}`, 'see the Target interface in kubespec/contract');
  if (!t.contractVersion) {
    throw new TargetConfigError(`the target "${t.name}" does not say which contract version it implements`, `set contractVersion: CONTRACT_VERSION (imported from kubespec/contract; this suite speaks ${CONTRACT_VERSION})`);
  }
  if (!contractCompatible(t.contractVersion, CONTRACT_VERSION)) {
    throw new TargetConfigError(
      `the target "${t.name}" implements contract ${t.contractVersion}, but this suite speaks contract ${CONTRACT_VERSION}`,
      `rebuild the target against kubespec/contract ${CONTRACT_VERSION} (docs/adapters.md lists what changed), or run the kubespec version it was written for`,
    );
  }
  const unknown = [...t.capabilities!].filter((c) => !isCapability(c));
  if (unknown.length > 0) throw new TargetConfigError(`the target "${t.name}" declares unknown capabilities: ${unknown.join(', ')}`, 'kubespec check-target lists the vocabulary; see CAPABILITIES in kubespec/contract');
}

/** Same major; the target's minor no newer than the suite's (a newer one may rely on facets we lack). */
export function contractCompatible(targetVersion: unknown, suiteVersion: string): boolean {
  const parse = (v: unknown) => /^(\d+)\.(\d+)$/.exec(String(v).trim())?.slice(1).map(Number);
  const t = parse(targetVersion);
  const s = parse(suiteVersion);
  if (!t || !s) return false;
  return t[0] === s[0] && t[1]! <= s[1]!;
}

/**
 * ts-node: type-check the module (and its relative .ts imports) against the contract with the
 * tsconfig found beside it, compile it to CommonJS and run it. Imports of packages (including
 * `kubespec/contract` itself) go through Node's ordinary resolution. A type error is a
 * configuration error, shown as ts-node reports it.
 */
function loadWithTsNode(file: string): unknown {
  const require = createRequire(import.meta.url);
  let tsNode: typeof import('ts-node');
  try {
    tsNode = require('ts-node');
  } catch {
    throw new TargetConfigError('--loader ts-node needs the ts-node package', 'npm install --save-dev ts-node typescript');
  }
  const service = tsNode.create({ projectSearchDir: path.dirname(file) });
  const cache = new Map<string, Module>();
  const load = (abs: string): unknown => {
    const cached = cache.get(abs);
    if (cached) return cached.exports;
    const m = new Module(abs) as Module & { _compile(code: string, file: string): void; paths: string[] };
    cache.set(abs, m);
    m.filename = abs;
    m.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(abs));
    const plainRequire = createRequire(abs);
    // Relative TypeScript imports are compiled by the same service; everything else as usual.
    m.require = Object.assign((id: string) => {
      // The contract is the suite's own instance, so `instanceof CompactedError` holds in the steps.
      if (id === 'kubespec/contract') return publishedContract;
      const resolved = id.startsWith('.') ? resolveTs(path.resolve(path.dirname(abs), id)) : undefined;
      return resolved ? load(resolved) : plainRequire(id);
    }, plainRequire) as NodeJS.Require;
    let js: string;
    try {
      js = service.compile(fs.readFileSync(abs, 'utf8'), abs);
    } catch (error) {
      throw new TargetConfigError(`ts-node rejected ${abs}:\n${(error as Error).message}`, 'fix the type errors against kubespec/contract, or load it with tsx (the default) to skip the check');
    }
    m._compile(js, abs);
    m.loaded = true;
    return m.exports;
  };
  return load(file);
}

function resolveTs(base: string): string | undefined {
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')];
  return candidates.find((c) => c.endsWith('.ts') && fs.existsSync(c));
}
