/**
 * The `-m comment --comment` texts kube-proxy puts on its iptables rules, as upstream writes them
 * (kubernetes/kubernetes pkg/proxy/iptables/proxier.go: "kubernetes service portals",
 * `svcPortNameString + " cluster IP"`, `"%s has no endpoints"`, …), so that a dump reads like
 * one from a node.
 *
 * Kept apart from proxier.ts on purpose: the comments are for the humans reading `iptables-save`;
 * netfilter ignores them, and no Rule of the source documents claims their wording, so no
 * scenario can honestly pin it. The mutation run of the iptables proxier (docs/mutation.md)
 * mutates proxier.ts only; a mutant that changes a comment's words is not a wrong proxy.
 */
import { endpointString, type Endpoint, type ServicePort } from '../model.ts';
import type { Match } from './rules.ts';

const comment = (text: string): Match => ({ kind: 'comment', text });

export const SERVICE_PORTALS = comment('kubernetes service portals');
export const POSTROUTING_RULES = comment('kubernetes postrouting rules');
export const REQUIRING_SNAT = comment('kubernetes service traffic requiring SNAT');
export const EXTERNAL_PORTALS = comment('kubernetes externally-visible service portals');
export const NODEPORTS_LAST = comment('kubernetes service nodeports; NOTE: this must be the last rule in this chain');

/** "ns/svc:port" */
export const servicePort = (sp: ServicePort): Match => comment(sp.id);
/** "ns/svc:port -> 10.244.1.10:8080" */
export const toEndpoint = (sp: ServicePort, ep: Endpoint): Match => comment(`${sp.id} -> ${endpointString(ep)}`);
export const clusterIP = (sp: ServicePort): Match => comment(`${sp.id} cluster IP`);
export const noEndpoints = (sp: ServicePort): Match => comment(`${sp.id} has no endpoints`);
export const noLocalEndpoints = (sp: ServicePort): Match => comment(`${sp.id} has no local endpoints`);
export const masqueradeExternal = (sp: ServicePort): Match => comment(`masquerade traffic for ${sp.id} external destinations`);
export const podTrafficExternal = (sp: ServicePort): Match => comment(`pod traffic for ${sp.id} external destinations`);
export const masqueradeLocalExternal = (sp: ServicePort): Match => comment(`masquerade LOCAL traffic for ${sp.id} external destinations`);
export const routeLocalExternal = (sp: ServicePort): Match => comment(`route LOCAL traffic for ${sp.id} external destinations`);
