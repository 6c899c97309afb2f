/**
 * How a cucumber process loads the suite's support code: bundled, or through tsx.
 *
 * Through tsx every module of the steps, adapters and reference (some seven hundred) is resolved
 * and compiled through tsx's loader hooks, which Node 20 runs on a separate thread: each
 * resolution and load is a round trip to it, in the coordinator and again in each worker, and
 * the hooks stay on the path of every later import: a cucumber dry run of the whole suite took
 * 3.3 s through tsx and 1.9 s bundled, which every process pays (the selftest starts one per
 * fault model; a whole reference run saved ~4 % of its CPU). So `kubespec run` and
 * `kubespec selftest` load one bundle of plain ES modules
 * instead: esbuild (the compiler tsx itself uses) bundles steps/** — in cucumber's own order, so
 * step definitions and hooks register as they would — the formatter and the preload into
 * .tmp/cucumber-bundle/<key>/, with source maps, and the processes run with
 * --enable-source-maps, so a failure's stack names steps/….ts lines as before. Packages stay
 * outside the bundle (the same @cucumber/cucumber instance as the runner's).
 *
 * The key is a hash of every source file's path, size and modification time, so an edit is
 * picked up by the next run; a build goes to a directory of its own and is renamed into place,
 * so runs started side by side never read a half-written bundle.
 *
 * Not bundled — loaded through tsx as before — when the run measures coverage (c8 reports the
 * reference's .ts files), when the target is a plug-in module (it may be TypeScript, loaded by
 * path at run time), or with KUBESPEC_BUNDLE=0.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CUCUMBER_PRELOAD_ARGS, cucumberNodeOptions } from './cucumber-preload.ts';

export interface CucumberLoad {
  /** Node arguments before cucumber's script (the preload). */
  preloadArgs: readonly string[];
  /** cucumber's --import arguments for the support code. */
  importArgs: readonly string[];
  /** The kubespec console formatter, for --format. */
  formatter: string;
  /** NODE_OPTIONS for the cucumber process and its workers. */
  nodeOptions(inherited: string | undefined): string;
  bundled: boolean;
}

const TSX_LOAD: CucumberLoad = {
  preloadArgs: CUCUMBER_PRELOAD_ARGS,
  importArgs: ['--import', 'steps/**/*.ts'],
  formatter: './steps/support/formatter.ts',
  nodeOptions: cucumberNodeOptions,
  bundled: false,
};

/** The source trees the support code reaches (packages stay outside the bundle). */
const SOURCE_DIRS = ['steps', 'adapters', 'reference', 'contract', 'lincheck', 'cli'];
const BUNDLE_ROOT = path.join('.tmp', 'cucumber-bundle');
/** Bumped when the bundle's layout or options change, so an old bundle is not reused. */
const LAYOUT = 1;

export async function cucumberLoad(opts: { coverage?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<CucumberLoad> {
  const env = opts.env ?? process.env;
  if (opts.coverage || env.KUBESPEC_TARGET_MODULE || env.KUBESPEC_BUNDLE === '0') return TSX_LOAD;
  const dir = await ensureBundle();
  return {
    preloadArgs: ['--import', path.resolve(dir, 'preload.mjs')],
    importArgs: ['--import', path.join(dir, 'steps.mjs')],
    formatter: `./${path.join(dir, 'formatter.mjs')}`,
    nodeOptions: (inherited) => `${inherited ?? ''} --enable-source-maps`.trim(),
    bundled: true,
  };
}

/** The step files as cucumber expands `steps/**\/*.ts`: every .ts file, sorted as strings. */
export function stepFiles(root = '.'): string[] {
  return listFiles(path.join(root, 'steps')).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).map((f) => path.resolve(f)).sort();
}

async function ensureBundle(): Promise<string> {
  const key = sourceKey();
  const dir = path.join(BUNDLE_ROOT, key);
  if (fs.existsSync(path.join(dir, 'steps.mjs'))) return dir;
  const building = `${dir}.building-${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  await build(building);
  try {
    fs.renameSync(building, dir);
  } catch {
    // Another run built the same key first: use its bundle.
    fs.rmSync(building, { recursive: true, force: true });
  }
  removeStaleBundles(key);
  return dir;
}

async function build(outdir: string): Promise<void> {
  const esbuild = await import('esbuild');
  const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', sourcemap: 'linked', sourcesContent: false, logLevel: 'warning' } as const;
  const entry = stepFiles().map((f) => `import ${JSON.stringify(f)};`).join('\n');
  await esbuild.build({ ...common, stdin: { contents: entry, resolveDir: process.cwd(), sourcefile: 'steps-entry.ts', loader: 'ts' }, outfile: path.join(outdir, 'steps.mjs') });
  await esbuild.build({
    ...common,
    entryPoints: { formatter: 'steps/support/formatter.ts', preload: 'cli/cucumber-preload.ts' },
    outdir,
    outExtension: { '.js': '.mjs' },
  });
}

/** A hash of every source file's path, size and mtime (and the bundle layout). */
function sourceKey(): string {
  const hash = createHash('sha256').update(`layout ${LAYOUT}\n`);
  for (const dir of SOURCE_DIRS) {
    for (const file of listFiles(dir).sort()) {
      const st = fs.statSync(file);
      hash.update(`${file} ${st.size} ${st.mtimeMs}\n`);
    }
  }
  return hash.digest('hex').slice(0, 16);
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

/** Bundles of earlier sources, left an hour ago or more (a run started before may still be loading its own). */
function removeStaleBundles(current: string): void {
  const hourAgo = Date.now() - 3_600_000;
  for (const name of fs.readdirSync(BUNDLE_ROOT)) {
    if (name === current) continue;
    const p = path.join(BUNDLE_ROOT, name);
    if (fs.statSync(p).mtimeMs < hourAgo) fs.rmSync(p, { recursive: true, force: true });
  }
}
