/**
 * The cluster DNS in the reference cluster: CoreDNS's `kubernetes` plugin (reference/dns/records.ts)
 * served over real UDP (node:dgram) with dns-packet's codec, fed by informers on Services,
 * EndpointSlices and Namespaces that list and watch the API server — as CoreDNS's dnsController
 * does — as the `coredns` ServiceAccount bound to kubeadm's ClusterRole `system:coredns`. It never
 * reads the store.
 *
 * - It serves only once its informers have listed (CoreDNS delays serving until its watches have
 *   synced: plugin README, "Startup").
 * - It listens on UDP and on TCP at the same port, as CoreDNS's `.:53` server block does. Over UDP
 *   a query with EDNS gets an OPT back and up to the advertised payload size; without, 512 bytes
 *   (RFC 1035 4.2.1). An answer that does not fit is sent truncated (TC) and empty, and the
 *   resolver asks again over TCP (RFC 7766), where messages carry a two-byte length.
 * - More than one question, or an opcode other than QUERY, is refused as CoreDNS refuses it
 *   (FORMERR, NOTIMP); an undecodable packet with at least a header gets FORMERR.
 */
import dgram from 'node:dgram';
import net, { isIP } from 'node:net';
import dnsPacket from 'dns-packet';
import { Informer } from '../controllers/informer.ts';
import type { ResourceRef } from '../controllers/types.ts';
import { answerQuestion, DEFAULT_TTL_S, DEFAULT_ZONE, type DnsAnswer } from '../dns/records.ts';
import { seededRandom } from '../apiserver/server.ts';
import type { ApiClient } from './api-client.ts';
import type { Scheduler } from './virtual-clock.ts';
import { NO_FAULTS, type Faults } from '../faults.ts';

const SERVICES: ResourceRef = { group: '', version: 'v1', resource: 'services' };
const ENDPOINT_SLICES: ResourceRef = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' };
const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces' };

/** The ServiceAccount CoreDNS runs as in kubeadm's addon (cmd/kubeadm/app/phases/addons/dns/manifests.go). */
export const COREDNS_USER = 'system:serviceaccount:kube-system:coredns';
export const COREDNS_GROUPS = ['system:serviceaccounts', 'system:serviceaccounts:kube-system'];
export const COREDNS_AGENT = 'coredns/1.11.3 (linux/amd64) kubespec-reference';

const RCODES = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
/** RFC 1035 4.2.1: a UDP message without EDNS is at most 512 bytes. */
const PLAIN_UDP_LIMIT = 512;
/** What this server advertises in its OPT (the DNS flag day 2020 size). */
const EDNS_PAYLOAD = 1232;
/** A DNS message over TCP is at most 65535 bytes (its length prefix is 16 bits). */
const TCP_LIMIT = 65_535;
/** Tries at binding TCP to the port UDP got when that port was picked (port 0) and TCP finds it taken. */
const BIND_TRIES = 5;

/** kubeadm's ClusterRole system:coredns and its binding to kube-system/coredns (manifests.go, CoreDNSClusterRole). */
export function coreDnsRbacObjects(): any[] {
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'system:coredns' },
      rules: [
        { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'system:coredns' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:coredns' },
      subjects: [{ kind: 'ServiceAccount', name: 'coredns', namespace: 'kube-system' }],
    },
  ];
}

export interface ClusterDnsOptions {
  client: Pick<ApiClient, 'listWatcher'>;
  clock: Scheduler;
  seed: number;
  /** Where to listen (UDP); default 127.0.0.1, port 0 (any free port). */
  host?: string;
  port?: number;
  zone?: string;
  ttl_s?: number;
  /** Fault models (reference/faults.ts); default none. */
  faults?: Faults;
}

export class ClusterDns {
  private serial = 1;
  private readonly connections = new Set<net.Socket>();
  private constructor(
    private readonly informers: { services: Informer; slices: Informer; namespaces: Informer },
    private readonly socket: dgram.Socket,
    private readonly tcp: net.Server,
    private readonly zone: string,
    private readonly ttl_s: number,
    private readonly faults: Faults,
  ) {}

  static async start(opts: ClusterDnsOptions): Promise<ClusterDns> {
    const random = seededRandom(opts.seed ^ 0x646e73);
    let dns: ClusterDns | undefined;
    const make = (ref: ResourceRef) => new Informer({
      resource: ref.resource, listWatcher: opts.client.listWatcher(ref), timers: opts.clock, random,
      onEvent: () => {},
      onProgress: () => void (dns && dns.serial++),
    });
    const informers = { services: make(SERVICES), slices: make(ENDPOINT_SLICES), namespaces: make(NAMESPACES) };
    const stopInformers = () => Object.values(informers).forEach((i) => i.stop());
    try {
      await Promise.all(Object.values(informers).map((i) => i.start()));
      const { socket, tcp } = await bindBoth(opts.host ?? '127.0.0.1', opts.port ?? 0);
      dns = new ClusterDns(informers, socket, tcp, opts.zone ?? DEFAULT_ZONE, opts.ttl_s ?? DEFAULT_TTL_S, opts.faults ?? NO_FAULTS);
      socket.on('message', (msg, from) => dns!.reply(msg, from));
      // A send that fails (the client went away) is the client's loss, never the server's crash.
      socket.on('error', () => {});
      tcp.on('connection', (conn) => dns!.serveTcp(conn));
      return dns;
    } catch (error) {
      stopInformers();
      throw error;
    }
  }

  /** Where the server answers, as a pod's resolv.conf `nameserver` (with the port, since it is not 53). */
  get address(): { host: string; port: number } {
    const a = this.socket.address();
    return { host: a.address, port: a.port };
  }

  async stop(): Promise<void> {
    for (const i of Object.values(this.informers)) i.stop();
    await new Promise<void>((done) => this.socket.close(() => done()));
    for (const conn of this.connections) conn.destroy();
    await new Promise<void>((done) => this.tcp.close(() => done()));
  }

  /** The answer to one question from the informers' caches (exposed for the wiring's tests). */
  answer(name: string, type: string): DnsAnswer {
    const view = {
      services: this.informers.services.list(),
      endpointSlices: this.informers.slices.list(),
      namespaces: new Set(this.informers.namespaces.list().map((n) => n.metadata.name.toLowerCase())),
    };
    return answerQuestion(view, { name, type }, { zone: this.zone, ttl_s: this.ttl_s, serial: this.serial, faults: this.faults });
  }

  private reply(msg: Buffer, from: dgram.RemoteInfo): void {
    const response = this.respond(msg, 'udp');
    if (response) this.socket.send(response, from.port, from.address);
  }

  /** RFC 1035 4.2.2: each message on the connection is preceded by its length in two bytes; several may follow each other. */
  private serveTcp(conn: net.Socket): void {
    let pending = Buffer.alloc(0);
    this.connections.add(conn);
    conn.on('close', () => this.connections.delete(conn));
    conn.on('error', () => {});
    conn.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const msg = pending.subarray(2, 2 + pending.readUInt16BE(0));
        pending = pending.subarray(2 + msg.length);
        const response = this.respond(msg, 'tcp');
        if (!response) continue;
        const length = Buffer.alloc(2);
        length.writeUInt16BE(response.length);
        conn.write(Buffer.concat([length, response]));
      }
    });
  }

  private respond(msg: Buffer, transport: 'udp' | 'tcp'): Buffer | undefined {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return msg.length >= 12 ? header(msg.readUInt16BE(0), RCODES.FORMERR) : undefined;
    }
    if (query.type !== 'query') return undefined;
    const id = query.id ?? 0;
    const rd = (query.flags ?? 0) & dnsPacket.RECURSION_DESIRED;
    const opcode = ((query.flags ?? 0) >> 11) & 0xf;
    if (opcode !== 0) return header(id, RCODES.NOTIMP, rd);
    if (query.questions?.length !== 1) return header(id, RCODES.FORMERR, rd);
    const question = query.questions[0]!;
    const answer = this.answer(question.name, question.type);
    const opt = (query.additionals ?? []).find((r) => r.type === 'OPT') as { udpPayloadSize?: number } | undefined;
    const udpLimit = opt ? Math.max(PLAIN_UDP_LIMIT, Math.min(opt.udpPayloadSize ?? PLAIN_UDP_LIMIT, EDNS_PAYLOAD)) : PLAIN_UDP_LIMIT;
    const limit = transport === 'tcp' ? TCP_LIMIT : udpLimit;
    const optRecords = opt ? [{ type: 'OPT', name: '.', udpPayloadSize: EDNS_PAYLOAD, flags: 0 } as any] : [];
    const flags = dnsPacket.AUTHORITATIVE_ANSWER | rd | RCODES[answer.rcode];
    const full = dnsPacket.encode({
      type: 'response', id, flags, questions: [question],
      answers: answer.answers as any, authorities: answer.authorities as any, additionals: [...(answer.additionals as any[]), ...optRecords],
    });
    if (full.length <= limit) return full;
    return dnsPacket.encode({ type: 'response', id, flags: flags | dnsPacket.TRUNCATED_RESPONSE, questions: [question], additionals: optRecords });
  }
}

/** A UDP socket and a TCP server on one port (any free one for port 0: UDP picks, TCP follows, tried again if TCP finds it taken). */
async function bindBoth(host: string, port: number): Promise<{ socket: dgram.Socket; tcp: net.Server }> {
  for (let attempt = 1; ; attempt++) {
    const socket = dgram.createSocket(isIP(host) === 6 ? 'udp6' : 'udp4');
    await new Promise<void>((done, fail) => {
      socket.once('error', fail);
      socket.bind(port, host, () => (socket.off('error', fail), done()));
    });
    const tcp = net.createServer();
    try {
      await new Promise<void>((done, fail) => {
        tcp.once('error', fail);
        tcp.listen(socket.address().port, host, () => (tcp.off('error', fail), done()));
      });
      return { socket, tcp };
    } catch (error) {
      socket.close();
      if (port !== 0 || attempt >= BIND_TRIES) throw error;
    }
  }
}

/** A response with a header only (and no question): for requests this server cannot read or will not serve. */
function header(id: number, rcode: number, rd = 0): Buffer {
  return dnsPacket.encode({ type: 'response', id, flags: rd | rcode, questions: [] });
}
