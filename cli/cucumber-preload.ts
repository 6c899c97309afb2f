/**
 * Loaded into every cucumber process `kubespec run` and `kubespec selftest` start (through
 * `--import` on their command lines, before cucumber itself), to take a cost off the run that is cucumber's, not the
 * suite's.
 *
 * cucumber-expressions (19.0.0, staging in @cucumber/cucumber) finds where each step's
 * arguments sit through `regexp-match-indices`, a polyfill for RegExp match indices (the `d`
 * flag). The polyfill decides once whether the engine has them by matching a regexp made
 * without the `d` flag — which never carries indices — so it always takes its JavaScript
 * implementation, and that one re-generates a measuring regexp with regexp-tree on every
 * matched step (implementation.js, getMeasurementRegExp → toRegExp). Matching this suite's
 * ~6,000 steps took ~4.0 s of CPU with it and ~2.7 s without (`cucumber-js --dry-run`, one
 * process); a parallel run matches them in the coordinator and again in the workers. Node ≥ 16.4 has the `d` flag,
 * so the module is answered here with the engine's own: the same `exec` with `indices`, as the
 * TC39 proposal the polyfill implements specifies them (github.com/tc39/proposal-regexp-match-indices).
 */
import { createRequire, findSourceMap, Module } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `RegExp.prototype.exec` with match indices: the regexp re-made with the `d` flag, once per regexp. */
export function execWithIndices(regexp: RegExp, text: string): RegExpExecArray | null {
  let withIndices = WITH_INDICES.get(regexp);
  if (!withIndices) {
    withIndices = regexp.hasIndices ? regexp : new RegExp(regexp.source, `${regexp.flags}d`);
    WITH_INDICES.set(regexp, withIndices);
  }
  withIndices.lastIndex = regexp.lastIndex;
  const match = withIndices.exec(text);
  regexp.lastIndex = withIndices.lastIndex;
  return match;
}
const WITH_INDICES = new WeakMap<RegExp, RegExp>();

/**
 * Puts `execWithIndices` in the CommonJS module cache under the path cucumber-expressions
 * resolves `regexp-match-indices` to, so its `require` finds it there. Nothing happens when
 * that package is not where cucumber-expressions would load it from (a later version without it).
 */
export function installNativeMatchIndices(): boolean {
  let file: string;
  try {
    const fromCucumber = createRequire(createRequire(import.meta.url).resolve('@cucumber/cucumber'));
    const fromExpressions = createRequire(fromCucumber.resolve('@cucumber/cucumber-expressions'));
    file = fromExpressions.resolve('regexp-match-indices');
  } catch {
    return false;
  }
  const cache = (Module as unknown as { _cache: Record<string, Module> })._cache;
  if (cache[file]) return false;
  const module = new Module(file);
  module.filename = file;
  module.loaded = true;
  module.exports = execWithIndices;
  cache[file] = module;
  return true;
}

/**
 * cucumber (12.x, runtime/scope) runs every step, hook and run-level hook inside an
 * AsyncLocalStorage, only so that its `world` and `context` exports (proxies, for arrow-function
 * steps) can find the current World. On Node 20 a used AsyncLocalStorage turns on the promise
 * hooks for the whole process, for good: every promise the in-process reference cluster makes
 * then pays an init hook and a context copy — the reference run's profile had ~4 % of its CPU in
 * node:internal/async_hooks plus the garbage. This suite never uses those proxies, and a cucumber
 * process runs one test case at a time (parallel runs are separate worker processes), so the
 * scopes are kept here as a plain "current store" set for the duration of the callback: `world`
 * and `context` still answer inside a step or hook, and still throw outside one.
 */
export function sequentialScope<S>(misuse: string): { run<R>(store: S, callback: () => R): Promise<Awaited<R>>; get(): S } {
  let current: S | undefined;
  return {
    async run<R>(store: S, callback: () => R): Promise<Awaited<R>> {
      // cucumber never nests a scope in itself, so there is no outer store to go back to.
      current = store;
      try {
        return await callback();
      } finally {
        // A step cucumber gave up on (its timeout) may settle after the next one began: leave that one's store.
        if (current === store) current = undefined;
      }
    },
    get() {
      if (current === undefined) throw new Error(misuse);
      return current;
    },
  };
}

/**
 * Puts scope modules without AsyncLocalStorage in the CommonJS module cache under the paths of
 * cucumber's own (runtime/scope/test_case_scope.js and test_run_scope.js), with the same exports
 * and messages. Nothing happens when cucumber has no such modules (another version).
 */
export function installSequentialScopes(): boolean {
  let caseFile: string;
  let runFile: string;
  let makeProxy: <T>(get: () => T) => T;
  try {
    const fromCucumber = createRequire(createRequire(import.meta.url).resolve('@cucumber/cucumber'));
    caseFile = fromCucumber.resolve('@cucumber/cucumber/lib/runtime/scope/test_case_scope');
    runFile = fromCucumber.resolve('@cucumber/cucumber/lib/runtime/scope/test_run_scope');
    ({ makeProxy } = fromCucumber('@cucumber/cucumber/lib/runtime/scope/make_proxy'));
  } catch {
    return false;
  }
  const cache = (Module as unknown as { _cache: Record<string, Module> })._cache;
  if (cache[caseFile] || cache[runFile]) return false;
  const testCase = sequentialScope<{ world: unknown }>('Attempted to access `world` from incorrect scope; only applicable to steps and case-level hooks');
  const testRun = sequentialScope<{ context: unknown }>('Attempted to access `context` from incorrect scope; only applicable to run-level hooks');
  const put = (file: string, exports: object) => {
    const module = new Module(file);
    module.filename = file;
    module.loaded = true;
    module.exports = { __esModule: true, ...exports };
    cache[file] = module;
  };
  put(caseFile, { runInTestCaseScope: testCase.run, worldProxy: makeProxy(() => testCase.get().world) });
  put(runFile, { runInTestRunScope: testRun.run, contextProxy: makeProxy(() => testRun.get().context) });
  return true;
}

/**
 * Where a step definition or hook is defined, as cucumber's getDefinitionLineAndUri answers it:
 * the first frame of the defining call's stack outside cucumber, relative to `cwd`. cucumber
 * formats a whole `new Error().stack` and parses it back (error-stack-parser); under
 * --enable-source-maps that maps every frame, cucumber's own included (reading their source
 * maps): ~0.7 s of CPU for the suite's ~1,100 definitions, in the coordinator and again in each
 * worker, before any scenario runs. Here V8's call sites are read as they are, and only the
 * chosen frame is mapped (its line in steps/….ts, as Node's own stack mapping gives it).
 */
export function definitionLineAndUri(cwd: string, isExcluded: (fileName: string) => boolean): { line: number; uri: string } {
  const sites = callSites();
  const site = sites.find((s) => {
    const file = s.getFileName();
    // This module's own frames are left out as cucumber leaves out its getDefinitionLineAndUri's;
    // cucumber's frames are told by their file, which needs no source map read.
    if (!file || file === OWN_URL || file === OWN_FILE || isExcluded(file)) return false;
    return !isExcluded(originalFile(s) ?? file);
  });
  if (!site) return { line: 0, uri: 'unknown' };
  const mapped = mappedPosition(site);
  let uri = mapped?.file ?? site.getFileName()!;
  if (uri.startsWith('file://')) uri = fileURLToPath(uri);
  return { line: mapped?.line ?? site.getLineNumber() ?? 0, uri: path.relative(cwd, uri) };
}

const OWN_URL = import.meta.url;
const OWN_FILE = fileURLToPath(import.meta.url);

/** The caller's call sites (this function's and definitionLineAndUri's frames left out). */
function callSites(): NodeJS.CallSite[] {
  const prepare = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (_error, sites) => sites;
    const holder: { stack?: unknown } = {};
    Error.captureStackTrace(holder, definitionLineAndUri);
    return holder.stack as NodeJS.CallSite[];
  } finally {
    Error.prepareStackTrace = prepare;
  }
}

/** A call site's position in its original source, when its file has a source map. */
function mappedPosition(site: NodeJS.CallSite): { file: string; line: number } | undefined {
  const file = site.getFileName();
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  if (!file || line === null || column === null) return undefined;
  const entry = findSourceMap(file)?.findEntry(line - 1, column - 1) as { originalSource?: string; originalLine?: number } | undefined;
  if (!entry?.originalSource || entry.originalLine === undefined) return undefined;
  return { file: entry.originalSource, line: entry.originalLine + 1 };
}

/** The original file of a frame in a source-mapped file (cucumber excludes by the mapped name). */
function originalFile(site: NodeJS.CallSite): string | undefined {
  const file = mappedPosition(site)?.file;
  return file?.startsWith('file://') ? fileURLToPath(file) : file;
}

/** Answers cucumber's get_definition_line_and_uri module with definitionLineAndUri (nothing when absent). */
export function installDefinitionLocator(): boolean {
  let file: string;
  let isFileNameInCucumber: (fileName: string) => boolean;
  try {
    const fromCucumber = createRequire(createRequire(import.meta.url).resolve('@cucumber/cucumber'));
    file = fromCucumber.resolve('@cucumber/cucumber/lib/support_code_library_builder/get_definition_line_and_uri');
    ({ isFileNameInCucumber } = fromCucumber('@cucumber/cucumber/lib/filter_stack_trace'));
  } catch {
    return false;
  }
  const cache = (Module as unknown as { _cache: Record<string, Module> })._cache;
  if (cache[file]) return false;
  const module = new Module(file);
  module.filename = file;
  module.loaded = true;
  module.exports = { __esModule: true, getDefinitionLineAndUri: (cwd: string, isExcluded = isFileNameInCucumber) => definitionLineAndUri(cwd, isExcluded) };
  cache[file] = module;
  return true;
}

/** NODE_OPTIONS for a cucumber child: tsx, so it (and its parallel workers) load the TypeScript. */
export function cucumberNodeOptions(inherited: string | undefined): string {
  return `${inherited ?? ''} --import tsx`.trim();
}

/**
 * Node arguments that load this file, placed before cucumber's script on its command line — not
 * in NODE_OPTIONS, which c8 (the coverage wrapper) would inherit: c8's own process compiling a
 * `.ts` file through tsx with a cold tsx cache never starts its child (seen on a fresh machine:
 * the run hung with no output until killed). cucumber's parallel workers are forked with the
 * coordinator's execArgv (child_process.fork's default), so they load it too.
 */
export const CUCUMBER_PRELOAD_ARGS: readonly string[] = ['--import', import.meta.url];

installNativeMatchIndices();
installSequentialScopes();
installDefinitionLocator();
