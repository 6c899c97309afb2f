/**
 * The claims inventory: every Rule of every feature file, read with cucumber's own Gherkin
 * parser, with its id, source, status and scenarios. `check` lists what makes the book invalid.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AstBuilder, GherkinClassicTokenMatcher, Parser } from '@cucumber/gherkin';
import { IdGenerator, type Rule, type Scenario, type Tag } from '@cucumber/messages';
import { isCapability } from '../../contract/capabilities.ts';
import { versionRanges } from '../../steps/support/versions.ts';

export type ClaimStatus = 'testable' | 'pending' | 'untestable';

export interface ScenarioInfo {
  name: string;
  line: number;
  requires: string[];
  tags: string[];
}

export interface Claim {
  id: string;
  title: string;
  component: string;
  file: string;
  line: number;
  status: ClaimStatus;
  erratum: boolean;
  fields: Partial<Record<ClaimField, string>>;
  tags: string[];
  scenarios: ScenarioInfo[];
}

export interface Problem {
  file: string;
  line: number;
  message: string;
}

const FIELDS = ['Source', 'Claim', 'Quote', 'Upstream', 'Untestable'] as const;
type ClaimField = (typeof FIELDS)[number];
export const ID_PATTERN = /^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$/;

export interface Inventory {
  claims: Claim[];
  problems: Problem[];
}

export function readInventory(featuresDir: string): Inventory {
  const claims: Claim[] = [];
  const problems: Problem[] = [];
  for (const file of featureFiles(featuresDir)) {
    const relative = path.relative(process.cwd(), file);
    try {
      readFeature(relative, fs.readFileSync(file, 'utf8'), claims, problems);
    } catch (error) {
      problems.push({ file: relative, line: 1, message: `does not parse: ${(error as Error).message.split('\n')[0]}` });
    }
  }
  problems.push(...checkClaims(claims));
  return { claims, problems };
}

export function featureFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.feature'))
    .map((f) => path.join(dir, f))
    .sort();
}

function readFeature(file: string, text: string, claims: Claim[], problems: Problem[]): void {
  const doc = new Parser(new AstBuilder(IdGenerator.incrementing()), new GherkinClassicTokenMatcher()).parse(text);
  const feature = doc.feature;
  if (!feature) return;
  const component = componentOf(feature.tags) ?? path.basename(path.dirname(file));
  for (const child of feature.children) {
    if (child.scenario) problems.push(outsideRule(file, child.scenario));
    if (child.rule) claims.push(claimOf(file, component, child.rule, feature.tags));
  }
}

function claimOf(file: string, component: string, rule: Rule, featureTags: readonly Tag[]): Claim {
  const tags = [...featureTags, ...rule.tags].map((t) => t.name);
  const scenarios = rule.children.flatMap((c) => (c.scenario ? [scenarioInfo(c.scenario, tags)] : []));
  const id = rule.name.split(/\s/)[0] ?? '';
  return {
    id,
    title: rule.name.slice(id.length).replace(/^[\s—:-]+/, ''),
    component,
    file,
    line: rule.location.line,
    status: tags.includes('@untestable') ? 'untestable' : tags.includes('@pending') ? 'pending' : 'testable',
    erratum: tags.includes('@erratum'),
    fields: parseFields(rule.description),
    tags,
    scenarios,
  };
}

function scenarioInfo(scenario: Scenario, inherited: string[]): ScenarioInfo {
  const tags = [...inherited, ...scenario.tags.map((t) => t.name)];
  const requires = tags.filter((t) => t.startsWith('@requires:')).map((t) => t.slice('@requires:'.length));
  return { name: scenario.name, line: scenario.location.line, requires, tags };
}

/** `Field: text` lines of a Rule's description; indented lines continue the previous field. */
export function parseFields(description: string): Partial<Record<ClaimField, string>> {
  const fields: Partial<Record<ClaimField, string>> = {};
  let current: ClaimField | undefined;
  for (const raw of description.split('\n')) {
    const line = raw.trim();
    const match = /^([A-Z][a-z]+):\s*(.*)$/.exec(line);
    if (match && (FIELDS as readonly string[]).includes(match[1]!)) {
      current = match[1] as ClaimField;
      fields[current] = match[2] ?? '';
    } else if (current && line) {
      fields[current] = `${fields[current]} ${line}`.trim();
    } else if (!line) {
      current = undefined;
    }
  }
  return fields;
}

function componentOf(tags: readonly Tag[]): string | undefined {
  return tags.find((t) => t.name.startsWith('@component:'))?.name.slice('@component:'.length);
}

function outsideRule(file: string, scenario: Scenario): Problem {
  return { file, line: scenario.location.line, message: `Scenario "${scenario.name}" is not under a Rule: every example illustrates one claim` };
}

export function checkClaims(claims: Claim[]): Problem[] {
  const problems: Problem[] = [];
  const seen = new Map<string, Claim>();
  for (const claim of claims) {
    const at = (message: string, line = claim.line) => problems.push({ file: claim.file, line, message });
    if (!ID_PATTERN.test(claim.id)) at(`Rule "${claim.id} ${claim.title}" has no id: start its name with one like WATCH-410`);
    const twin = seen.get(claim.id);
    if (twin) at(`duplicate id ${claim.id} (also ${twin.file}:${twin.line})`);
    seen.set(claim.id, claim);
    if (!claim.fields.Source) at(`${claim.id} has no "Source:" line naming the seed file and section`);
    if (claim.status === 'untestable' && !claim.fields.Untestable) at(`${claim.id} is @untestable without an "Untestable:" reason`);
    if (claim.status === 'untestable' && claim.scenarios.length) at(`${claim.id} is @untestable but has scenarios`);
    if (claim.erratum && !claim.fields.Upstream) at(`${claim.id} is @erratum without an "Upstream:" line citing upstream behaviour`);
    if (claim.status === 'testable' && !claim.scenarios.length) at(`${claim.id} is testable and not @pending, but has no scenario`);
    for (const s of claim.scenarios) {
      for (const c of s.requires.filter((r) => !isCapability(r))) at(`unknown capability @requires:${c} in "${s.name}" (see contract/capabilities.ts)`, s.line);
      try {
        versionRanges(s.tags);
      } catch (error) {
        at(`${(error as Error).message} in "${s.name}"`, s.line);
      }
    }
  }
  return problems;
}
