/**
 * DenyServiceExternalIPs (plugin/pkg/admission/network/denyserviceexternalips/admission.go):
 * a small built-in validating policy. A Service may not gain spec.externalIPs (the
 * CVE-2020-8554 mitigation); an update may keep or drop IPs it already had.
 * Denial: `services "x" is forbidden: Use of external IPs is denied by admission control`.
 */
import type { AdmissionAttributes, ValidatingPlugin } from '../pipeline.ts';
import { admissionForbidden } from './errors.ts';

export const DENY_SERVICE_EXTERNAL_IPS_PLUGIN_NAME = 'DenyServiceExternalIPs';

/** A create or update of a Service itself: the only requests this plugin checks. */
function serviceWrite(attrs: AdmissionAttributes): boolean {
  return (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE') && attrs.resource.group === '' && attrs.resource.resource === 'services' && attrs.subresource === '';
}

export function denyServiceExternalIPs(): ValidatingPlugin {
  return {
    name: DENY_SERVICE_EXTERNAL_IPS_PLUGIN_NAME,
    handles: serviceWrite,
    async validate(attrs: AdmissionAttributes): Promise<void> {
      if (!serviceWrite(attrs)) return;
      const next = externalIPs(attrs.object);
      const before = new Set(externalIPs(attrs.oldObject));
      if (next.every((ip) => before.has(ip))) return;
      throw admissionForbidden(attrs, 'Use of external IPs is denied by admission control', DENY_SERVICE_EXTERNAL_IPS_PLUGIN_NAME);
    },
  };
}

function externalIPs(svc: any): string[] {
  const ips = svc?.spec?.externalIPs;
  return Array.isArray(ips) ? ips.map(String) : [];
}
