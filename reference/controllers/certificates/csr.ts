/**
 * What the certificate controllers read from a CertificateSigningRequest: the subject of its
 * PKCS#10 request (RFC 2986), and whether it is a kubelet's client certificate request as
 * upstream's IsKubeletClientCSR defines one (pkg/apis/certificates/v1/helpers.go):
 * O is exactly ["system:nodes"], CN starts with "system:node:", no subject alternative names,
 * and the usages are "client auth" with "digital signature" and/or "key encipherment" only.
 *
 * node:crypto parses certificates but not certification requests, so the subject is read from
 * the DER here: only the few structures on the way to the Name are decoded.
 */
export const KUBELET_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
export const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';

const OID_CN = '2.5.4.3';
const OID_O = '2.5.4.10';
/** subjectAltName (2.5.29.17) as DER bytes: its presence in the request's attributes means SANs were asked for. */
const SAN_OID_DER = Buffer.from([0x06, 0x03, 0x55, 0x1d, 0x11]);

export interface CsrSubject {
  commonName: string;
  organizations: string[];
  hasSubjectAltNames: boolean;
}

interface Tlv {
  tag: number;
  start: number;
  end: number;
}

function readTlv(der: Buffer, at: number): Tlv {
  const tag = der[at]!;
  let len = der[at + 1]!;
  let start = at + 2;
  if (len & 0x80) {
    const bytes = len & 0x7f;
    if (bytes === 0 || bytes > 4) throw new Error('unsupported DER length');
    len = 0;
    for (let i = 0; i < bytes; i++) len = len * 256 + der[start + i]!;
    start += bytes;
  }
  if (start + len > der.length) throw new Error('truncated DER');
  return { tag, start, end: start + len };
}

function children(der: Buffer, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.start; at < parent.end; ) {
    const tlv = readTlv(der, at);
    out.push(tlv);
    at = tlv.end;
  }
  return out;
}

function oid(der: Buffer, tlv: Tlv): string {
  const bytes = der.subarray(tlv.start, tlv.end);
  const parts = [Math.floor(bytes[0]! / 40), bytes[0]! % 40];
  let value = 0;
  for (const b of bytes.subarray(1)) {
    value = value * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

/** The subject of a PEM certification request; undefined when it is not one. */
export function csrSubject(requestPem: string): CsrSubject | undefined {
  const m = /-----BEGIN (?:NEW )?CERTIFICATE REQUEST-----([\s\S]+?)-----END (?:NEW )?CERTIFICATE REQUEST-----/.exec(requestPem);
  if (!m) return undefined;
  try {
    const der = Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
    const info = children(der, readTlv(der, 0))[0]!;
    const [, name, , attributes] = children(der, info);
    const subject: CsrSubject = { commonName: '', organizations: [], hasSubjectAltNames: attributes ? der.subarray(attributes.start, attributes.end).includes(SAN_OID_DER) : false };
    for (const rdn of children(der, name!)) {
      for (const atv of children(der, rdn)) {
        const [type, value] = children(der, atv);
        const text = der.subarray(value!.start, value!.end).toString('utf8');
        const id = oid(der, type!);
        if (id === OID_CN) subject.commonName = text;
        if (id === OID_O) subject.organizations.push(text);
      }
    }
    return subject;
  } catch {
    return undefined;
  }
}

const KUBELET_CLIENT_USAGES = new Set(['client auth', 'digital signature', 'key encipherment']);

/** upstream IsKubeletClientCSR, given the request's subject and the CSR's usages. */
export function isKubeletClientRequest(subject: CsrSubject, usages: readonly string[]): boolean {
  if (subject.organizations.length !== 1 || subject.organizations[0] !== NODES_GROUP) return false;
  if (subject.hasSubjectAltNames) return false;
  if (!subject.commonName.startsWith(NODE_USER_PREFIX)) return false;
  return usages.includes('client auth') && usages.every((u) => KUBELET_CLIENT_USAGES.has(u));
}

/** The request's PEM, decoded from spec.request (base64). */
export function requestPem(csr: any): string {
  return Buffer.from(String(csr?.spec?.request ?? ''), 'base64').toString('utf8');
}

export function hasCondition(csr: any, type: string): boolean {
  return (csr?.status?.conditions ?? []).some((c: any) => c.type === type && c.status !== 'False');
}
