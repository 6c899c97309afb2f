import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { definitionLineAndUri, execWithIndices, installDefinitionLocator, installNativeMatchIndices, installSequentialScopes, sequentialScope } from './cucumber-preload.ts';

const require = createRequire(import.meta.url);

// Regexps shaped like the suite's steps: nested, optional, alternated and non-capturing groups.
const CASES: Array<[RegExp, string]> = [
  [/^pod "([^"]+)" bound to node "([^"]+)", which does not exist, and pod "([^"]+)" bound to node "([^"]+)"$/, 'pod "a" bound to node "gone-x", which does not exist, and pod "b" bound to node "here-x"'],
  [/^(?:the )?(\d+) (members?|nodes?)( are| is)? killed(?: at once)?$/, 'the 3 members are killed at once'],
  [/^key ("([^"\\]*(\\.[^"\\]*)*)"|'([^'\\]*(\\.[^'\\]*)*)') reads (.*)$/, 'key "a\\"b" reads \'x\''],
  [/^(a)?(b)?c$/, 'bc'],
  [/(?<name>x+)(y)/, 'zzxxxy'],
];

test('the indices are the ones the polyfill computes', () => {
  const polyfill = require('regexp-match-indices/implementation') as (this: RegExp, s: string) => RegExpExecArray | null;
  for (const [regexp, text] of CASES) {
    const ours = execWithIndices(regexp, text);
    const theirs = polyfill.call(regexp, text);
    assert.ok(ours && theirs, `${regexp} matches ${text}`);
    assert.deepEqual([...ours], [...theirs]);
    assert.deepEqual([...ours.indices!], [...theirs.indices!], `indices of ${regexp}`);
    assert.deepEqual({ ...ours.indices!.groups }, { ...theirs.indices!.groups });
  }
  assert.equal(execWithIndices(/^x$/, 'y'), null);
});

test('cucumber expressions find their arguments through it', () => {
  installNativeMatchIndices(); // already done when the module loaded: a second call changes nothing
  const fromExpressions = createRequire(require.resolve('@cucumber/cucumber-expressions'));
  assert.equal(fromExpressions('regexp-match-indices'), execWithIndices);
  const { CucumberExpression, ParameterTypeRegistry, RegularExpression } = require('@cucumber/cucumber-expressions');
  const registry = new ParameterTypeRegistry();
  const args = new CucumberExpression('within {int} seconds pod {string} is gone', registry).match('within 60 seconds pod "stray" is gone');
  assert.deepEqual(args.map((a: any) => a.getValue(null)), [60, 'stray']);
  assert.deepEqual(args.map((a: any) => a.group.start), [7, 22]);
  const regular = new RegularExpression(/^(\d+) members? (?:are|is) killed$/, registry).match('2 members are killed');
  assert.deepEqual(regular.map((a: any) => [a.getValue(null), a.group.start, a.group.end]), [[2, 0, 1]]);
});

test("cucumber's scopes are the sequential ones: world and context answer inside, throw outside", async () => {
  assert.equal(installSequentialScopes(), false); // done when the module loaded
  const scope = require('@cucumber/cucumber/lib/runtime/scope');
  const { world, context } = require('@cucumber/cucumber');
  const w = { name: 'the world' };
  assert.equal(await scope.runInTestCaseScope({ world: w }, async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return world.name;
  }), 'the world');
  assert.throws(() => world.name, /incorrect scope; only applicable to steps/);
  assert.equal(await scope.runInTestRunScope({ context: { parameters: { a: 1 } } }, () => context.parameters.a), 1);
  assert.throws(() => context.parameters, /incorrect scope; only applicable to run-level hooks/);
});

test('a scope abandoned by a timed-out step leaves the next one its store', async () => {
  const s = sequentialScope<string>('outside');
  let finishFirst!: () => void;
  const first = s.run('first', () => new Promise<void>((resolve) => (finishFirst = resolve)));
  await s.run('second', async () => {
    finishFirst();
    await first;
    assert.equal(s.get(), 'second');
  });
  assert.throws(() => s.get(), /outside/);
});

test("a definition's location is its caller's line, as cucumber's own locator finds it", () => {
  assert.equal(installDefinitionLocator(), false); // done when the module loaded
  const { getDefinitionLineAndUri } = require('@cucumber/cucumber/lib/support_code_library_builder/get_definition_line_and_uri');
  const here = () => getDefinitionLineAndUri(process.cwd()); const line = 72;
  assert.deepEqual(here(), { line, uri: 'cli/cucumber-preload.test.ts' });
  // Frames the exclusion rejects are passed over, as cucumber passes over its own.
  const outer = () => definitionLineAndUri(process.cwd(), (file) => file.includes("node:")); const outerLine = 75;
  assert.deepEqual(outer(), { line: outerLine, uri: 'cli/cucumber-preload.test.ts' });
});
