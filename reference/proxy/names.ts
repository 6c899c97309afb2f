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
 * servicePortInfo / endpointInfo), remember them: per Service port, its chain names and its
 * endpoints' names, as the finished strings (a full sync of 10,000 Services asks for 100,000
 * endpoint names; building and hashing the text again each time was a tenth of its cost).
 * A pure function's memo: bounded, then reset.
 */
interface PortNames {
  hash: string;
  svc: string;
  svl: string;
  ext: string;
  /** "ip:port" → KUBE-SEP-… */
  seps: Map<string, string>;
  nftBase?: string;
  /** "ip/port" → nftables endpoint base. */
  nftEndpoints: Map<string, string>;
}
const memo = new Map<string, PortNames>();
let memoEntries = 0;
const MEMO_LIMIT = 1 << 20;

function hash(text: string): string {
  return base32(createHash('sha256').update(text).digest()).slice(0, 16);
}

const proto = (sp: ServicePort): string => sp.protocol.toLowerCase();

function namesOf(sp: ServicePort): PortNames {
  const key = `${sp.id}|${sp.protocol}`;
  let names = memo.get(key);
  if (names === undefined) {
    if (memoEntries >= MEMO_LIMIT) {
      memo.clear();
      memoEntries = 0;
    }
    const h = hash(sp.id + proto(sp));
    names = { hash: h, svc: `KUBE-SVC-${h}`, svl: `KUBE-SVL-${h}`, ext: `KUBE-EXT-${h}`, seps: new Map(), nftEndpoints: new Map() };
    memo.set(key, names);
    memoEntries++;
  }
  return names;
}

/** portProtoHash: the 16 characters every per-Service iptables chain shares. */
export function portProtoHash(sp: ServicePort): string {
  return namesOf(sp).hash;
}

export const svcChain = (sp: ServicePort): string => namesOf(sp).svc;
export const svlChain = (sp: ServicePort): string => namesOf(sp).svl;
export const extChain = (sp: ServicePort): string => namesOf(sp).ext;
export function sepChain(sp: ServicePort, ep: Endpoint): string {
  const names = namesOf(sp);
  const key = `${ep.ip}:${ep.port}`;
  let name = names.seps.get(key);
  if (name === undefined) {
    name = `KUBE-SEP-${hash(sp.id + proto(sp) + key)}`;
    names.seps.set(key, name);
    memoEntries++;
  }
  return name;
}

/** nftables: hashAndTruncate of the readable name (128-character chain names, 16 for the prefix). */
function hashAndTruncate(name: string): string {
  const full = `${hash(name).slice(0, 8)}-${name}`;
  return full.length > 112 ? `${full.slice(0, 109)}...` : full;
}

export function nftServiceBase(sp: ServicePort): string {
  const names = namesOf(sp);
  return (names.nftBase ??= hashAndTruncate(`${sp.namespace}/${sp.name}/${proto(sp)}/${sp.portName}`));
}
export function nftEndpointBase(sp: ServicePort, ep: Endpoint): string {
  const names = namesOf(sp);
  const key = `${ep.ip}/${ep.port}`;
  let base = names.nftEndpoints.get(key);
  if (base === undefined) {
    base = hashAndTruncate(`${sp.namespace}/${sp.name}/${proto(sp)}/${sp.portName}__${key}`);
    names.nftEndpoints.set(key, base);
    memoEntries++;
  }
  return base;
}
