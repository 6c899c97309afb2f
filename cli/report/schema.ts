/**
 * The conformance report's JSON Schema (schemas/conformance-report.schema.json), shipped so that
 * other tools can read what kubespec writes; every report the suite writes is checked against it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';

export const SCHEMA_PATH = path.join('schemas', 'conformance-report.schema.json');

let validator: ValidateFunction | undefined;

/** The schema's complaints about a report, one line each; empty when it validates. */
export function schemaProblems(report: unknown): string[] {
  if (!validator) {
    // ajv is CommonJS; its default export is the class.
    const Ajv = createRequire(import.meta.url)('ajv') as typeof import('ajv').default;
    validator = new Ajv({ allErrors: true, strict: true }).compile(JSON.parse(fs.readFileSync(SCHEMA_PATH, 'utf8')));
  }
  if (validator(report)) return [];
  return (validator.errors ?? []).slice(0, 20).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
}
