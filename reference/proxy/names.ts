/**
 * Chain names, as upstream computes them so that a rule dump here reads like one from a node.
 *
 * iptables (kubernetes/kubernetes pkg/proxy/iptables/proxier.go, portProtoHash,
 * servicePortPolicyClusterChainName, servicePortEndpointChainName): base32 of the sha256 of
 * servicePortName + lower-case protocol (+ "ip:port" for an endpoint), first 16 characters,
 * after a prefix — iptables chain names must stay within 28 characters.
 *
 * nftables (pkg/proxy/nftables/proxier.go, hashAndTruncate, servicePortChainNameBase):
 * "HASH8-namespace/name/protocol/portName", readable and still unique.
 */
import { createHash } from 'node:crypto';
import type { Endpoint, ServicePort } from './model.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (Go's base32.StdEncoding), padding omitted: callers truncate anyway. */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/**
 * Names are recomputed on every sync for every endpoint; like upstream (which keeps them on its
 * servicePortInfo / endpointInfo), remember them. A pure function's memo: bounded, then reset.
 */
const memo = new Map<string, string>();
const MEMO_LIMIT = 1 << 20;

function hash(text: string): string {
  let h = memo.get(text);
  if (h === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    h = base32(createHash('sha256').update(text).digest()).slice(0, 16);
    memo.set(text, h);
  }
  return h;
}

const proto = (sp: ServicePort): string => sp.protocol.toLowerCase();

/** portProtoHash: the 16 characters every per-Service iptables chain shares. */
export function portProtoHash(sp: ServicePort): string {
  return hash(sp.id + proto(sp));
}

export const svcChain = (sp: ServicePort): string => `KUBE-SVC-${portProtoHash(sp)}`;
export const svlChain = (sp: ServicePort): string => `KUBE-SVL-${portProtoHash(sp)}`;
export const extChain = (sp: ServicePort): string => `KUBE-EXT-${portProtoHash(sp)}`;
export function sepChain(sp: ServicePort, ep: Endpoint): string {
  return `KUBE-SEP-${hash(sp.id + proto(sp) + `${ep.ip}:${ep.port}`)}`;
}

/** nftables: hashAndTruncate of the readable name (128-character chain names, 16 for the prefix). */
function hashAndTruncate(name: string): string {
  const full = `${hash(name).slice(0, 8)}-${name}`;
  return full.length > 112 ? `${full.slice(0, 109)}...` : full;
}

export function nftServiceBase(sp: ServicePort): string {
  return hashAndTruncate(`${sp.namespace}/${sp.name}/${proto(sp)}/${sp.portName}`);
}
export function nftEndpointBase(sp: ServicePort, ep: Endpoint): string {
  return hashAndTruncate(`${sp.namespace}/${sp.name}/${proto(sp)}/${sp.portName}__${ep.ip}/${ep.port}`);
}
