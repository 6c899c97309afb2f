/**
 * Content negotiation, after staging/src/k8s.io/apiserver/pkg/endpoints/handlers/negotiation:
 * the response is JSON, so a request must accept JSON (406 otherwise); a body must be JSON or
 * YAML (415 otherwise); a body that does not parse is 400.
 */
import { rememberDuplicateFields } from './duplicate-fields.ts';
import { parse as parseYaml } from 'yaml';
import { errors } from './status.ts';
import { decodeObject, PROTOBUF_MEDIA_TYPE, ProtobufError } from './protobuf/codec.ts';

const ACCEPTED_OUTPUT = ['application/json', PROTOBUF_MEDIA_TYPE];
const ACCEPTED_INPUT = ['application/json', 'application/yaml', PROTOBUF_MEDIA_TYPE];

export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

export function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** Whether one Accept entry is something we produce: plain JSON (a `stream=watch` param is fine), or a wildcard. */
function acceptable(entry: string): boolean {
  const [type, ...params] = entry.split(';').map((p) => p.trim().toLowerCase());
  if (params.some((p) => p === 'q=0' || p === 'q=0.0' || p.startsWith('as='))) return false;
  return type === 'application/json' || type === '*/*' || type === 'application/*' || type === '';
}

/** What the client will take: a Table (kubectl get asks for one first), plain JSON and/or protobuf. */
export interface Output {
  preferred: 'json' | 'table' | 'protobuf';
  /** meta.k8s.io/v1 or meta.k8s.io/v1beta1, when a Table is acceptable. */
  tableApiVersion?: string;
  jsonOk: boolean;
  /** The Kubernetes protobuf envelope is acceptable (for the kinds that have one). */
  protobufOk?: boolean;
}

/** Whether one Accept entry names the Kubernetes protobuf media type (plain objects, not a Table). */
function protobufEntry(entry: string): boolean {
  const [type, ...params] = entry.split(';').map((p) => p.trim().toLowerCase());
  return type === PROTOBUF_MEDIA_TYPE && !params.some((p) => p === 'q=0' || p === 'q=0.0' || p.startsWith('as='));
}

function tableVersion(entry: string): string | undefined {
  const [type, ...params] = entry.split(';').map((p) => p.trim().toLowerCase());
  if (type !== 'application/json' || !params.includes('as=table') || !params.includes('g=meta.k8s.io')) return undefined;
  if (params.includes('v=v1')) return 'meta.k8s.io/v1';
  if (params.includes('v=v1beta1')) return 'meta.k8s.io/v1beta1';
  return undefined;
}

function quality(entry: string): number {
  const q = entry.split(';').map((p) => p.trim()).find((p) => p.startsWith('q='));
  const n = q ? Number(q.slice(2)) : 1;
  return Number.isFinite(n) ? n : 0;
}

/** Picks the response form from the Accept header, best quality first; 406 when nothing fits. */
/**
 * Accept headers already negotiated: clients send the same few on every request, and parsing
 * one (split, quality, sort, three matchers per entry) showed in every request's profile. The
 * answer is a pure function of the header and frozen; a refused header is not remembered.
 */
const negotiated = new Map<string, Output>();
const MAX_NEGOTIATED = 256;

export function negotiateOutput(accept: string): Output {
  const hit = negotiated.get(accept);
  if (hit) return hit;
  const out = Object.freeze(negotiate(accept));
  if (negotiated.size >= MAX_NEGOTIATED) negotiated.clear();
  negotiated.set(accept, out);
  return out;
}

function negotiate(accept: string): Output {
  if (accept.trim() === '') return { preferred: 'json', jsonOk: true };
  const entries = accept.split(',').map((e, i) => ({ e, i, q: quality(e) })).filter((x) => x.q > 0).sort((a, b) => b.q - a.q || a.i - b.i);
  let out: Output | undefined;
  let jsonOk = false;
  let protobufOk = false;
  for (const { e } of entries) {
    const table = tableVersion(e);
    const json = acceptable(e);
    const proto = protobufEntry(e);
    jsonOk ||= json;
    protobufOk ||= proto;
    if (!out && table) out = { preferred: 'table', tableApiVersion: table, jsonOk: false };
    if (!out && json) out = { preferred: 'json', jsonOk: true };
    if (!out && proto) out = { preferred: 'protobuf', jsonOk: false };
  }
  if (!out) throw errors.notAcceptable(ACCEPTED_OUTPUT);
  return protobufOk ? { ...out, jsonOk, protobufOk } : { ...out, jsonOk };
}

/** Throws 406 unless the Accept header admits JSON. */
export function checkAccept(accept: string): void {
  if (!negotiateOutput(accept).jsonOk) throw errors.notAcceptable(ACCEPTED_OUTPUT);
}

/** Nesting deeper than this is refused outright, before any recursive code sees the body. */
export const MAX_BODY_DEPTH = 100;

function tooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > MAX_BODY_DEPTH) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

export function parseJsonBody(text: string, what = "couldn't get version/kind; json parse error"): unknown {
  if (tooDeep(text)) throw errors.badRequest(`${what}: exceeded max depth of ${MAX_BODY_DEPTH}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw errors.badRequest(`${what}: ${(e as Error).message}`);
  }
  rememberDuplicateFields(value, text);
  return value;
}

export function parseYamlBody(text: string): unknown {
  let value: unknown;
  try {
    value = parseYaml(text, { maxAliasCount: 50, uniqueKeys: false, logLevel: 'error' });
  } catch (e) {
    throw errors.badRequest(`error converting YAML to JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  // Round-trip through JSON: YAML can express values JSON cannot (dates, NaN, cycles through aliases).
  let json: string;
  try {
    json = JSON.stringify(value ?? null);
  } catch (e) {
    throw errors.badRequest(`error converting YAML to JSON: ${(e as Error).message}`);
  }
  return parseJsonBody(json, 'error converting YAML to JSON');
}

/** Decodes a create/update body by its Content-Type; a missing type is read as JSON, as most clients send it. */
export function decodeBody(contentType: string, body: Uint8Array): unknown {
  const type = mediaType(contentType);
  if (type === '' || type === 'application/json') return parseJsonBody(utf8Of(body));
  if (type === 'application/yaml') return parseYamlBody(utf8Of(body));
  if (type === PROTOBUF_MEDIA_TYPE) return decodeProtobufBody(body);
  throw errors.unsupportedMediaType(contentType, ACCEPTED_INPUT);
}

/** The body as text, read in place (Buffer.from(body) would copy it first). */
function utf8Of(body: Uint8Array): string {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}

/** A protobuf body: the k8s\0 envelope of a kind served as protobuf here; anything else is 400. */
function decodeProtobufBody(body: Uint8Array): unknown {
  try {
    return decodeObject(body);
  } catch (e) {
    if (e instanceof ProtobufError) throw errors.badRequest(e.message);
    throw e;
  }
}

export function isPlainObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
