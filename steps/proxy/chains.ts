/**
 * Upstream's iptables chain names, computed in the steps so a scenario can check a node's chain
 * is the one kube-proxy names for a Service (pkg/proxy/iptables/proxier.go, portProtoHash:
 * base32(sha256(servicePortName + protocol)) cut to 16 characters).
 */
import { createHash } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = ((value << 8) | b) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/** servicePortName is "namespace/name" plus ":port" when the Service's port has a name. */
export function serviceChainName(prefix: string, namespace: string, service: string, portName: string, protocol: string): string {
  const spn = `${namespace}/${service}${portName ? `:${portName}` : ''}`;
  return `${prefix}${base32(createHash('sha256').update(spn + protocol).digest()).slice(0, 16)}`;
}
