/**
 * Continue tokens for paginated lists, shaped like upstream's
 * (staging/src/k8s.io/apiserver/pkg/storage/continue.go): base64 of
 * {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key relative to the list prefix>"}.
 * The revision pins every page to the first page's snapshot.
 */
import { errors } from '../status.ts';

export interface ContinueToken {
  rv: number;
  start: string;
}

export function encodeContinue(t: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: t.rv, start: t.start }), 'utf8').toString('base64');
}

export function decodeContinue(s: string): ContinueToken {
  let parsed: any;
  try {
    parsed = JSON.parse(Buffer.from(s, 'base64').toString('utf8'));
  } catch {
    throw errors.badRequest('invalid continue token: continue key is not valid: illegal base64 data or JSON');
  }
  if (!parsed || parsed.v !== 'meta.k8s.io/v1') throw errors.badRequest('invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (!Number.isSafeInteger(parsed.rv) || parsed.rv <= 0) throw errors.badRequest('invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof parsed.start !== 'string' || parsed.start === '') throw errors.badRequest('invalid continue token: continue key is not valid: encoded start key is empty');
  return { rv: parsed.rv, start: parsed.start };
}
