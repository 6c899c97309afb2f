/**
 * The Status messages admission plugins answer with, built the way upstream builds them.
 *
 * - admission.NewForbidden (staging/src/k8s.io/apiserver/pkg/admission/errors.go) names the
 *   object as attrs.name, else the object's metadata.name, else its generateName, else
 *   "Unknown", and wraps with apierrors.NewForbidden: `pods "x" is forbidden: <detail>` (403).
 * - apierrors.NewInternalError: `Internal error occurred: <detail>` (500, InternalError).
 * - apierrors.NewNotFound: `namespaces "x" not found` (404, NotFound).
 * - apierrors.NewBadRequest: the detail as is (400, BadRequest).
 * The AdmissionDenied message is always the complete Status message; the server core copies
 * message, code and reason into the Status it sends.
 */
import { AdmissionDenied, type AdmissionAttributes } from '../pipeline.ts';

export function qualifiedResource(group: string, resource: string): string {
  return group === '' ? resource : `${resource}.${group}`;
}

export function objectNameForError(attrs: AdmissionAttributes): string {
  if (attrs.name) return attrs.name;
  const meta = attrs.object?.metadata;
  if (meta?.name) return String(meta.name);
  if (meta?.generateName) return String(meta.generateName);
  return 'Unknown';
}

export function admissionForbidden(attrs: AdmissionAttributes, detail: string, plugin: string): AdmissionDenied {
  const gr = qualifiedResource(attrs.resource.group, attrs.resource.resource);
  return new AdmissionDenied(`${gr} "${objectNameForError(attrs)}" is forbidden: ${detail}`, 403, 'Forbidden', plugin);
}

export function internalError(detail: string, plugin: string): AdmissionDenied {
  return new AdmissionDenied(`Internal error occurred: ${detail}`, 500, 'InternalError', plugin);
}

export function notFound(group: string, resource: string, name: string, plugin: string): AdmissionDenied {
  return new AdmissionDenied(`${qualifiedResource(group, resource)} "${name}" not found`, 404, 'NotFound', plugin);
}

export function badRequest(detail: string, plugin: string): AdmissionDenied {
  return new AdmissionDenied(detail, 400, 'BadRequest', plugin);
}
