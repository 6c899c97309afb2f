/**
 * Kubernetes `Status` errors. Reasons, codes and message formats follow
 * k8s.io/apimachinery/pkg/api/errors/errors.go (NewNotFound, NewAlreadyExists, NewConflict,
 * NewForbidden, NewInvalid, NewBadRequest, NewResourceExpired, NewMethodNotSupported,
 * NewRequestEntityTooLargeError, NewUnauthorized, NewTooManyRequests) and
 * k8s.io/apimachinery/pkg/util/validation/field/errors.go (ErrorBody, ToAggregate).
 */

export interface StatusCause {
  reason?: string;
  message: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface StatusObject {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** An API error that the server answers with its Status; anything else thrown is a bug. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toStatus(): StatusObject {
    return statusObject('Failure', this.code, this.message, this.reason, this.details);
  }
}

/** Group-qualified resource as schema.GroupResource.String() prints it: `pods`, `deployments.apps`. */
export function qualifiedResource(group: string, resource: string): string {
  return group ? `${resource}.${group}` : resource;
}

/** Go's %q for the plain strings we quote. */
export function quote(s: string): string {
  return JSON.stringify(s);
}

export function successStatus(details?: StatusDetails, code = 200): StatusObject {
  return statusObject('Success', code, undefined, undefined, details);
}

/**
 * A Status with its keys in metav1.Status's field order (kind, apiVersion, metadata, status,
 * message, reason, details, code) and empty fields left out, as encoding/json writes the Go struct
 * with its `omitempty` tags (k8s.io/apimachinery/pkg/apis/meta/v1/types.go Status, StatusDetails,
 * StatusCause): clients that compare bodies byte for byte see upstream's bytes.
 */
function statusObject(status: 'Failure' | 'Success', code: number, message?: string, reason?: string, details?: StatusDetails): StatusObject {
  const s = { kind: 'Status', apiVersion: 'v1', metadata: {}, status } as StatusObject;
  if (message) s.message = message;
  if (reason) s.reason = reason;
  const d = details && orderedDetails(details);
  if (d && Object.keys(d).length > 0) s.details = d;
  s.code = code;
  return s;
}

function orderedDetails(d: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.causes && d.causes.length > 0) out.causes = d.causes.map(orderedCause);
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

function orderedCause(c: StatusCause): StatusCause {
  const out = {} as StatusCause;
  if (c.reason) out.reason = c.reason;
  if (c.message) out.message = c.message;
  if (c.field) out.field = c.field;
  return out;
}

export const errors = {
  notFound(group: string, resource: string, name: string): ApiError {
    return new ApiError(404, 'NotFound', `${qualifiedResource(group, resource)} ${quote(name)} not found`, { name, group, kind: resource });
  },
  alreadyExists(group: string, resource: string, name: string): ApiError {
    return new ApiError(409, 'AlreadyExists', `${qualifiedResource(group, resource)} ${quote(name)} already exists`, { name, group, kind: resource });
  },
  /**
   * Every name the server generated was taken (errors.NewGenerateNameConflict in
   * k8s.io/apimachinery/pkg/api/errors/errors.go, returned by rest.CheckGeneratedNameError):
   * AlreadyExists like a client's own collision, but saying whose fault it is, with a retry hint.
   */
  generateNameConflict(group: string, resource: string, name: string): ApiError {
    const msg = `${qualifiedResource(group, resource)} ${quote(name)} already exists, the server was not able to generate a unique name for the object`;
    return new ApiError(409, 'AlreadyExists', msg, { name, group, kind: resource, retryAfterSeconds: 1 });
  },
  conflict(group: string, resource: string, name: string, why: string): ApiError {
    const msg = `Operation cannot be fulfilled on ${qualifiedResource(group, resource)} ${quote(name)}: ${why}`;
    return new ApiError(409, 'Conflict', msg, { name, group, kind: resource });
  },
  /** The message storage.ErrConflict / the registry's optimistic-concurrency failure carries (OptimisticLockErrorMsg). */
  staleResourceVersion(group: string, resource: string, name: string): ApiError {
    return errors.conflict(group, resource, name, 'the object has been modified; please apply your changes to the latest version and try again');
  },
  forbidden(group: string, resource: string, name: string, why: string): ApiError {
    const qr = qualifiedResource(group, resource);
    const message = !resource ? `forbidden: ${why}` : name ? `${qr} ${quote(name)} is forbidden: ${why}` : `${qr} is forbidden: ${why}`;
    return new ApiError(403, 'Forbidden', message, { name: name || undefined, group, kind: resource });
  },
  unauthorized(message = 'Unauthorized'): ApiError {
    return new ApiError(401, 'Unauthorized', message);
  },
  badRequest(message: string): ApiError {
    return new ApiError(400, 'BadRequest', message);
  },
  expired(message: string): ApiError {
    return new ApiError(410, 'Expired', message);
  },
  methodNotSupported(group: string, resource: string, action: string): ApiError {
    return new ApiError(405, 'MethodNotAllowed', `${action} is not supported on resources of kind ${quote(qualifiedResource(group, resource))}`, { group, kind: resource });
  },
  tooLarge(message: string): ApiError {
    return new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
  },
  /** k8s.io/apiserver/pkg/endpoints/handlers/negotiation: NewUnsupportedMediaTypeError. */
  unsupportedMediaType(contentType: string, accepted: string[]): ApiError {
    return new ApiError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`, {
      causes: [{ reason: 'UnexpectedServerResponse', message: contentType }],
    });
  },
  /** negotiation.NewNotAcceptableError. */
  notAcceptable(accepted: string[]): ApiError {
    return new ApiError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
  },
  tooManyRequests(message: string, causes?: StatusCause[]): ApiError {
    return new ApiError(429, 'TooManyRequests', message, causes ? { causes } : undefined);
  },
  /** A path the server has no handler for (upstream's NotFound handler answers with a 404 Status too). */
  pathNotFound(path: string): ApiError {
    return new ApiError(404, 'NotFound', 'the server could not find the requested resource', { causes: [{ reason: 'UnexpectedServerResponse', message: `404 page not found: ${path}` }] });
  },
  internal(message: string): ApiError {
    return new ApiError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
  },
};

/** One field.Error: its type's display string and how ErrorBody renders it. */
export type FieldErrorType = 'Required' | 'Invalid' | 'NotSupported' | 'Forbidden' | 'Duplicate' | 'TooLong' | 'TooMany' | 'NotFound';

export interface FieldError {
  type: FieldErrorType;
  field: string;
  value?: unknown;
  detail?: string;
}

const FIELD_ERROR_DISPLAY: Record<FieldErrorType, { cause: string; text: string; showsValue: boolean }> = {
  Required: { cause: 'FieldValueRequired', text: 'Required value', showsValue: false },
  Invalid: { cause: 'FieldValueInvalid', text: 'Invalid value', showsValue: true },
  NotSupported: { cause: 'FieldValueNotSupported', text: 'Unsupported value', showsValue: true },
  Forbidden: { cause: 'FieldValueForbidden', text: 'Forbidden', showsValue: false },
  Duplicate: { cause: 'FieldValueDuplicate', text: 'Duplicate value', showsValue: true },
  TooLong: { cause: 'FieldValueTooLong', text: 'Too long', showsValue: false },
  NotFound: { cause: 'FieldValueNotFound', text: 'Not found', showsValue: true },
  TooMany: { cause: 'FieldValueTooMany', text: 'Too many', showsValue: true },
};

/** field.Error.ErrorBody: `Invalid value: "x": detail`, `Required value`. */
export function fieldErrorBody(e: FieldError): string {
  const display = FIELD_ERROR_DISPLAY[e.type];
  let s = display.text;
  if (display.showsValue) s += `: ${typeof e.value === 'string' ? quote(e.value) : JSON.stringify(e.value ?? null)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

/** NewInvalid: 422 with one cause per field error; the message aggregates them like ToAggregate. */
export function invalid(group: string, kind: string, name: string, errs: FieldError[]): ApiError {
  const texts = errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
  const aggregate = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  const qualifiedKind = group ? `${kind}.${group}` : kind;
  const causes = errs.map((e) => ({ reason: FIELD_ERROR_DISPLAY[e.type].cause, message: fieldErrorBody(e), field: e.field }));
  return new ApiError(422, 'Invalid', `${qualifiedKind} ${quote(name)} is invalid: ${aggregate}`, { name, group, kind, causes });
}
