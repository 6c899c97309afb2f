/**
 * The certificate controllers of kube-controller-manager (pkg/controller/certificates/), for the
 * signer a kubelet's client certificate goes to, kubernetes.io/kube-apiserver-client-kubelet:
 *
 * - csrapproving (approver/sarapprove.go): a pending CSR for that signer whose requester is
 *   the node the certificate names (spec.username == the request's CN, and the request is a
 *   kubelet client request: isSelfNodeClientCert) is approved — condition Approved, reason
 *   AutoApproved — if a SubjectAccessReview says the requester may `create`
 *   `certificatesigningrequests/selfnodeclient` in certificates.k8s.io (kubeadm binds that
 *   ClusterRole, system:certificates.k8s.io:certificatesigningrequests:selfnodeclient, to
 *   system:nodes). Not allowed: the CSR is left pending for someone else to judge.
 * - csrsigning (signer/signer.go): an approved, not failed, not yet issued CSR for that signer is
 *   signed with the cluster CA (--cluster-signing-cert-file) into status.certificate; one that is
 *   not a kubelet client request gets condition Failed, reason SignerValidationFailure. The
 *   certificate is valid from 5 minutes before now (the backdate) for the CSR's
 *   spec.expirationSeconds or --cluster-signing-duration (default 8760 h), whichever is shorter,
 *   minus the backdate when that is 8 h or more (signer/authority/policy.go PermissiveSigningPolicy).
 *   Only the host can sign (the CA key is the host's): the reconcile asks for it with a `sign` action.
 */
import { hasCondition, isKubeletClientRequest, csrSubject, KUBELET_CLIENT_SIGNER, requestPem } from './csr.ts';
import type { Cache, ControllerDef, KubeObject, ResourceRef, SyncResult } from '../types.ts';

export const CSR_APPROVING_CONTROLLER = 'certificatesigningrequest-approving-controller';
export const CSR_SIGNING_CONTROLLER = 'certificatesigningrequest-signing-controller';
export const CSRS: ResourceRef = { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests' };

const HOUR_MS = 3_600_000;
/** --cluster-signing-duration's default (pkg/controller/certificates/signer/config/v1alpha1/defaults.go). */
export const DEFAULT_SIGNING_DURATION_MS = 8760 * HOUR_MS;
const BACKDATE_MS = 5 * 60_000;
const SHORT_MS = 8 * HOUR_MS;

const byName = (event: { object: Readonly<KubeObject> }) => [event.object.metadata.name];

export function csrApprovingController(): ControllerDef {
  return {
    name: CSR_APPROVING_CONTROLLER,
    aliases: ['csrapproving'],
    capability: 'controllers.csrapproving',
    watches: [CSRS],
    keysFor: (event) => (event.type === 'DELETED' ? [] : byName(event)),
    reconcile: (key, cache) => approve(key, cache),
  };
}

export function approve(name: string, cache: Cache): SyncResult {
  const csr: any = cache.get(CSRS.resource, '', name);
  if (!csr || csr.status?.certificate || hasCondition(csr, 'Approved') || hasCondition(csr, 'Denied')) return { actions: [] };
  if (csr.spec?.signerName !== KUBELET_CLIENT_SIGNER) return { actions: [] };
  const subject = csrSubject(requestPem(csr));
  // isSelfNodeClientCert: the requester asks for a certificate in its own name.
  if (!subject || csr.spec.username !== subject.commonName || !isKubeletClientRequest(subject, csr.spec.usages ?? [])) return { actions: [] };
  const approved = structuredClone(csr);
  approved.status = { ...approved.status, conditions: [...(approved.status?.conditions ?? []), { type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'Auto approving self kubelet client certificate after SubjectAccessReview.' }] };
  const review = { user: csr.spec.username, groups: csr.spec.groups ?? [], uid: csr.spec.uid, resourceAttributes: { group: CSRS.group, resource: CSRS.resource, subresource: 'selfnodeclient', verb: 'create' } };
  return { actions: [{ verb: 'update', resource: CSRS, namespace: '', object: approved, subresource: 'approval', ifAllowed: review }] };
}

export function csrSigningController(opts: { duration_ms?: number } = {}): ControllerDef {
  return {
    name: CSR_SIGNING_CONTROLLER,
    aliases: ['csrsigning'],
    capability: 'controllers.csrsigning',
    watches: [CSRS],
    keysFor: (event) => (event.type === 'DELETED' ? [] : byName(event)),
    reconcile: (key, cache, ctx) => sign(key, cache, ctx.now_ms(), opts.duration_ms ?? DEFAULT_SIGNING_DURATION_MS),
  };
}

export function sign(name: string, cache: Cache, now_ms: number, duration_ms: number): SyncResult {
  const csr: any = cache.get(CSRS.resource, '', name);
  if (!csr || csr.spec?.signerName !== KUBELET_CLIENT_SIGNER) return { actions: [] };
  if (!hasCondition(csr, 'Approved') || hasCondition(csr, 'Failed') || csr.status?.certificate) return { actions: [] };
  const pem = requestPem(csr);
  const subject = csrSubject(pem);
  if (!subject || !isKubeletClientRequest(subject, csr.spec.usages ?? [])) {
    const failed = structuredClone(csr);
    failed.status = { ...failed.status, conditions: [...(failed.status?.conditions ?? []), { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: 'invalid kubelet client certificate request' }] };
    return { actions: [{ verb: 'update', resource: CSRS, namespace: '', object: failed, subresource: 'status' }] };
  }
  const requested_ms = typeof csr.spec.expirationSeconds === 'number' ? csr.spec.expirationSeconds * 1000 : duration_ms;
  const ttl_ms = Math.min(requested_ms, duration_ms);
  const validity = { notBefore_ms: now_ms - BACKDATE_MS, notAfter_ms: ttl_ms < SHORT_MS ? now_ms + ttl_ms : now_ms + ttl_ms - BACKDATE_MS };
  return { actions: [{ verb: 'sign', csr: structuredClone(csr), requestPem: pem, validity }] };
}
