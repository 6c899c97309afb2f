/**
 * Conversion strategy Webhook: the API server sends the objects that are not in the desired
 * version to the CRD's conversion webhook in one apiextensions.k8s.io/v1 ConversionReview and
 * takes back the converted objects, after checking them.
 *
 * Follows staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/conversion/webhook_converter.go:
 * - the request is {request: {uid, desiredAPIVersion, objects}} (createConversionReviewObjects);
 * - the answer must be a v1 ConversionReview, with a response, whose uid is the request's, and
 *   result.status Success (getConvertedObjectsFromResponse: "expected response.uid=%q, got %q");
 * - as many converted objects as were sent ("returned %d objects, expected %d");
 * - each converted object has the desired apiVersion and the same kind, name, namespace and uid
 *   ("invalid groupVersion (expected %v, received %v)", validateConvertedObject "must have the
 *   same name: ..."); its metadata is the original's, except labels and annotations
 *   (restoreObjectMeta);
 * - every failure is one error "conversion webhook for <group>/<version>, Kind=<Kind> failed: …"
 *   (the input's GroupVersionKind). Upstream returns it as a plain Go error, which the handler turns
 *   into a 500 Status with an empty reason (StatusReasonUnknown) and that message
 *   (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/status.go ErrorToAPIStatus);
 *   observed so in kubernetes-sigs/kueue#8937: Code 500, Reason "", Message "conversion webhook for
 *   kueue.x-k8s.io/v1beta2, Kind=MultiKueueCluster failed: Post \"https://…/convert?timeout=30s\": EOF".
 * Not implemented: clientConfig.service (this server has no service network: such a call fails),
 * ConversionReview v1beta1.
 */
import { ApiError } from '../status.ts';
import type { WebhookCaller, WebhookClientConfig } from '../admission/webhook/types.ts';

export interface WebhookConversion {
  clientConfig?: WebhookClientConfig;
  conversionReviewVersions?: string[];
}

/** What the converter needs from outside: the HTTP transport (host/) and a fresh uid per review. */
export interface ConversionHost {
  call: WebhookCaller;
  newUid(): string;
}

/**
 * Upstream sets no timeout of its own for the call ("TODO: Figure out if adding one second timeout
 * make sense here"); the request's context bounds it. 30 s keeps a hung webhook from holding a
 * request for ever.
 */
const CALL_TIMEOUT_MS = 30_000;

/** 500 with no reason, as upstream's ErrorToAPIStatus answers a plain error. */
export function conversionError(message: string): ApiError {
  return new ApiError(500, '', message);
}

/** The objects converted to `desiredAPIVersion`, in order; throws a conversionError. */
export async function convertByWebhook(webhook: WebhookConversion | undefined, objects: any[], desiredAPIVersion: string, host: ConversionHost | undefined): Promise<any[]> {
  const first = objects[0];
  const failed = (why: string) => conversionError(`conversion webhook for ${gvk(first)} failed: ${why}`);
  const url = webhook?.clientConfig?.url;
  if (!host) throw failed('no webhook client is configured in this API server');
  if (!url) throw failed('clientConfig.service is not supported by this API server; use clientConfig.url');
  if (!(webhook?.conversionReviewVersions ?? []).includes('v1')) throw failed('no supported conversion review versions');
  const uid = host.newUid();
  const review = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid, desiredAPIVersion, objects } };
  const caBundlePem = webhook?.clientConfig?.caBundle ? Buffer.from(webhook.clientConfig.caBundle, 'base64').toString('utf8') : undefined;
  let answer;
  try {
    answer = await host.call({ url, body: JSON.stringify(review), timeout_ms: CALL_TIMEOUT_MS, ...(caBundlePem ? { caBundlePem } : {}) });
  } catch (e) {
    throw failed(`Post "${url}": ${(e as Error).message}`);
  }
  if (answer.status < 200 || answer.status > 299) throw failed(`the server responded with status ${answer.status}: ${answer.body.slice(0, 200)}`);
  const converted = convertedObjectsOf(uid, answer.body, failed);
  if (converted.length !== objects.length) {
    throw conversionError(`conversion webhook for ${gvk(first)} returned ${converted.length} objects, expected ${objects.length}`);
  }
  return converted.map((out, i) => checkedObject(objects[i], out, desiredAPIVersion, i, objects.length > 1));
}

function convertedObjectsOf(uid: string, body: string, failed: (why: string) => ApiError): any[] {
  let doc: any;
  try {
    doc = JSON.parse(body);
  } catch (e) {
    throw failed(`invalid character in response body: ${(e as Error).message}`);
  }
  const gv = `${doc?.apiVersion ?? ''}, Kind=${doc?.kind ?? ''}`;
  if (doc?.apiVersion !== 'apiextensions.k8s.io/v1' || doc?.kind !== 'ConversionReview') throw failed(`expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${gv}`);
  const response = doc.response;
  if (!response || typeof response !== 'object') throw failed('no response provided');
  if (response.uid !== uid) throw failed(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response.uid ?? '')}`);
  if (response.result?.status !== 'Success') {
    throw failed(response.result?.message ? String(response.result.message) : `response.result.status was '${response.result?.status ?? ''}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

/** One converted object checked against its original; metadata restored but for labels and annotations. */
function checkedObject(original: any, out: any, desired: string, index: number, isList: boolean): any {
  const what = isList ? `invalid converted object at index ${index + 1}` : 'invalid object at index 0';
  const bad = (why: string) => conversionError(`conversion webhook for ${gvk(original)} returned ${what}: ${why}`);
  if (!out || typeof out !== 'object' || Array.isArray(out)) throw bad('not an object');
  if (out.apiVersion !== desired) throw bad(`invalid groupVersion (expected ${desired}, received ${out.apiVersion ?? ''})`);
  if (out.kind !== original.kind) throw bad(`invalid kind (expected ${original.kind}, received ${out.kind ?? ''})`);
  const invalid = (why: string) => conversionError(`conversion webhook for ${gvk(original)} returned ${isList ? `invalid converted object at index ${index + 1}` : 'invalid object'}: ${why}`);
  for (const [field, label] of [['name', 'name'], ['namespace', 'namespace'], ['uid', 'UID']] as const) {
    const a = original.metadata?.[field] ?? '';
    const b = out.metadata?.[field] ?? '';
    if (a !== b) throw invalid(`must have the same ${label}: ${a} != ${b}`);
  }
  if (!out.metadata || typeof out.metadata !== 'object') throw invalid('missing metadata in converted object');
  const metadata = structuredClone(original.metadata ?? {});
  for (const f of ['labels', 'annotations'] as const) {
    if (out.metadata[f] == null) delete metadata[f];
    else metadata[f] = out.metadata[f];
  }
  return { ...out, metadata };
}

/** GroupVersionKind.String(): "group/version, Kind=Kind". */
function gvk(obj: any): string {
  return `${obj?.apiVersion ?? ''}, Kind=${obj?.kind ?? ''}`;
}
