/**
 * The admission.k8s.io/v1 AdmissionReview exchange.
 * Request: upstream CreateV1AdmissionReview
 * (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/request/admissionreview.go).
 * Response checks: VerifyAdmissionResponse in the same file — a response must be present, echo
 * the request uid, be an admission.k8s.io/v1 AdmissionReview, and carry patch and patchType
 * together (JSONPatch being the only patch type).
 */
import type { AdmissionAttributes } from '../../pipeline.ts';
import type { PatchOperation } from '../../patch/json-patch.ts';

export const ADMISSION_REVIEW_API_VERSION = 'admission.k8s.io/v1';

export interface AdmissionResult {
  allowed: boolean;
  status?: { code?: number; message?: string; reason?: string; status?: string };
  /** The decoded JSONPatch, filled in by the dispatcher (decodePatch). */
  patch?: PatchOperation[];
  /** base64 JSON, as the webhook sent it. */
  rawPatch?: string;
  patchType?: string;
  warnings?: string[];
}

const OPTIONS_KIND: Record<string, string> = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' };

export function admissionReviewRequest(uid: string, attrs: AdmissionAttributes): Record<string, unknown> {
  const kind = { group: attrs.kind.group, version: attrs.kind.version, kind: attrs.kind.kind };
  const resource = { group: attrs.resource.group, version: attrs.resource.version, resource: attrs.resource.resource };
  const optionsKind = OPTIONS_KIND[attrs.operation];
  return {
    apiVersion: ADMISSION_REVIEW_API_VERSION,
    kind: 'AdmissionReview',
    request: {
      uid,
      kind,
      resource,
      ...(attrs.subresource ? { subResource: attrs.subresource } : {}),
      requestKind: kind,
      requestResource: resource,
      ...(attrs.subresource ? { requestSubResource: attrs.subresource } : {}),
      ...(attrs.name ? { name: attrs.name } : {}),
      ...(attrs.namespace ? { namespace: attrs.namespace } : {}),
      operation: attrs.operation,
      userInfo: {
        username: attrs.user.name,
        ...(attrs.user.uid ? { uid: attrs.user.uid } : {}),
        groups: attrs.user.groups,
      },
      object: attrs.object ?? null,
      oldObject: attrs.oldObject ?? null,
      dryRun: attrs.dryRun,
      options: optionsKind ? { apiVersion: 'meta.k8s.io/v1', kind: optionsKind } : null,
    },
  };
}

/** Parse and check a webhook's answer; throws an Error with upstream's wording when it is invalid. */
export function verifyAdmissionResponse(uid: string, mutating: boolean, body: string): AdmissionResult {
  let review: any;
  try {
    review = JSON.parse(body);
  } catch (e) {
    throw new Error(`couldn't decode response: ${(e as Error).message}`);
  }
  const response = review?.response;
  if (!response || typeof response !== 'object') throw new Error('webhook response was absent');
  if (response.uid !== uid) throw new Error(`expected response.uid="${uid}", got "${response.uid ?? ''}"`);
  if (review.apiVersion !== ADMISSION_REVIEW_API_VERSION || review.kind !== 'AdmissionReview') {
    throw new Error(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${review.apiVersion ?? ''}, Kind=${review.kind ?? ''}`);
  }
  const result: AdmissionResult = { allowed: response.allowed === true };
  if (response.status) result.status = response.status;
  if (Array.isArray(response.warnings)) result.warnings = response.warnings.map(String);
  if (mutating) {
    const patch = response.patch;
    const patchType = response.patchType;
    if (patch && !patchType) throw new Error('webhook returned response.patch but not response.patchType');
    if (!patch && patchType) throw new Error('webhook returned response.patchType but not response.patch');
    if (patch) {
      result.rawPatch = String(patch);
      result.patchType = String(patchType);
    }
  }
  return result;
}

/** Decode a response's patch; the Error's message is upstream's ErrCallingWebhook reason. */
export function decodePatch(patchB64: string, patchType: string): PatchOperation[] {
  if (patchType !== 'JSONPatch') throw new Error(`unsupported patch type "${patchType}"`);
  let ops: unknown;
  try {
    ops = JSON.parse(Buffer.from(patchB64, 'base64').toString('utf8'));
  } catch (e) {
    throw new Error(`received undecodable patch in webhook response: ${(e as Error).message}`);
  }
  if (!Array.isArray(ops)) throw new Error('received undecodable patch in webhook response: not a JSON array');
  return ops as PatchOperation[];
}
