/**
 * The limit the API server is measured against: a bare node:https server in its own process,
 * with the same TLS stance as the reference's listener (asks for a client certificate), that
 * reads each request body and answers with bytes recorded from the reference — the create
 * answer for POST, the get answer for anything else. No routing, no storage, no checks: what
 * Node's HTTP stack alone costs on this machine.
 *
 * It also stands beside the watch figure: a GET with `watch=true` is held open as a chunked
 * stream, and each POST writes one event line to every open stream before its answer — the
 * recorded create answer with the name of the object posted, as `{"type":"ADDED","object":…}`.
 * That is the least a server can do to deliver an event to W watchers over HTTPS: one JSON
 * parse of the body, one line built, W socket writes.
 *
 * Run as a child: `node --import tsx bench/apiserver/bare-server.ts CONFIG.json`; prints
 * `listening on https://127.0.0.1:PORT`, stops on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedReply {
  status: number;
  contentType: string;
  body: string;
}

export interface BareServerConfig {
  certPem: string;
  keyPem: string;
  caPem: string;
  post: RecordedReply;
  get: RecordedReply;
}

function main(configPath: string): void {
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as BareServerConfig;
  const answers = {
    post: { status: config.post.status, headers: { 'content-type': config.post.contentType, 'content-length': Buffer.byteLength(config.post.body) }, body: config.post.body },
    get: { status: config.get.status, headers: { 'content-type': config.get.contentType, 'content-length': Buffer.byteLength(config.get.body) }, body: config.get.body },
  };
  const watches = new Set<ServerResponse>();
  const event = eventLines(config.post.body);
  const server = createServer({ cert: config.certPem, key: config.keyPem, ca: config.caPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      if (watches.size > 0) chunks.push(c);
    });
    req.on('end', () => {
      if (req.method === 'GET' && req.url?.includes('watch=true')) return holdWatch(res, watches);
      if (req.method === 'POST' && watches.size > 0) {
        const line = event(Buffer.concat(chunks));
        for (const w of watches) w.write(line);
      }
      const answer = req.method === 'POST' ? answers.post : answers.get;
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
  });
  server.listen(0, '127.0.0.1', () => {
    console.log(`listening on https://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  process.once('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}

function holdWatch(res: ServerResponse, watches: Set<ServerResponse>): void {
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
  res.flushHeaders();
  watches.add(res);
  res.on('close', () => watches.delete(res));
}

/** The ADDED line for a posted body: the recorded create answer, renamed to the object posted. */
function eventLines(recordedCreate: string): (body: Buffer) => string {
  const template = JSON.parse(recordedCreate);
  return (body) => {
    const name = (JSON.parse(body.toString('utf8')) as { metadata?: { name?: string } }).metadata?.name;
    return `{"type":"ADDED","object":${JSON.stringify({ ...template, metadata: { ...template.metadata, name } })}}\n`;
  };
}

const configPath = process.argv[2];
if (configPath) main(configPath);
