/**
 * POST serviceaccounts/<name>/token: the TokenRequest API, which mints a short-lived, audience-
 * bound ServiceAccount token (pkg/registry/core/serviceaccount/storage/token.go). The request is
 * validated as pkg/apis/authentication/validation/validation.go ValidateTokenRequest does
 * (expirationSeconds at least 10 minutes and at most 2^32 s; default 3600 from
 * SetDefaults_TokenRequestSpec); the ServiceAccount must exist; the answer is the TokenRequest
 * with status.token and status.expirationTimestamp, 201.
 */
import { decodeBody, headerValue } from '../negotiation.ts';
import { SUBRESOURCE_SCHEMAS } from '../resources/registry.ts';
import { errors, invalid, type FieldError } from '../status.ts';
import type { Env, Reply, ResourceCall } from '../types.ts';
import { reply } from '../types.ts';
import { decodeStage } from './create.ts';
import { decodeTyped, requestOptions } from './decode.ts';
import { rfc3339 } from './prepare.ts';

const GROUP = 'authentication.k8s.io';
/** validation.go MinTokenAgeSec. */
const MIN_TOKEN_AGE_S = 10 * 60;
const MAX_TOKEN_AGE_S = 2 ** 32;
const DEFAULT_EXPIRATION_S = 3600;

export async function requestToken(env: Env, call: ResourceCall): Promise<Reply> {
  if (!env.serviceAccountTokens) throw errors.pathNotFound(call.path);
  const opts = requestOptions(call, 'CreateOptions');
  const body = decodeStage(call, () =>
    decodeTyped(call, decodeBody(headerValue(call.req.headers, 'content-type'), call.req.body), 'TokenRequest', GROUP, 'v1', SUBRESOURCE_SCHEMAS['TokenRequest']!, opts.fieldValidation),
  );
  const spec = { ...(body.spec ?? {}) };
  spec.expirationSeconds ??= DEFAULT_EXPIRATION_S;
  validate(spec);
  const { namespace, name } = call.info;
  const sa = await env.store.get(call.def, namespace, name);
  if (!sa) throw errors.notFound('', 'serviceaccounts', name);
  const minted = env.serviceAccountTokens.mint({
    namespace,
    name,
    uid: sa.obj.metadata.uid,
    expirationSeconds: spec.expirationSeconds,
    ...(Array.isArray(spec.audiences) && spec.audiences.length > 0 ? { audiences: spec.audiences } : {}),
  });
  call.trace.pass('storage', 'token minted: nothing stored');
  return reply(201, {
    kind: 'TokenRequest',
    apiVersion: `${GROUP}/v1`,
    metadata: { name, namespace, creationTimestamp: rfc3339(env.clock.now_ms()) },
    spec,
    status: { token: minted.token, expirationTimestamp: minted.expirationTimestamp },
  });
}

function validate(spec: any): void {
  const errs: FieldError[] = [];
  const exp = spec.expirationSeconds;
  if (exp < MIN_TOKEN_AGE_S) errs.push({ type: 'Invalid', field: 'spec.expirationSeconds', value: exp, detail: 'may not specify a duration less than 10 minutes' });
  if (exp > MAX_TOKEN_AGE_S) errs.push({ type: 'Invalid', field: 'spec.expirationSeconds', value: exp, detail: 'may not specify a duration larger than 2^32 seconds' });
  if (errs.length > 0) throw invalid(GROUP, 'TokenRequest', '', errs);
}
