/**
 * The limit the API server is measured against: a bare node:https server in its own process,
 * with the same TLS stance as the reference's listener (asks for a client certificate), that
 * reads each request body and answers with bytes recorded from the reference — the create
 * answer for POST, the get answer for anything else. No routing, no storage, no checks: what
 * Node's HTTP stack alone costs on this machine.
 *
 * Run as a child: `node --import tsx bench/apiserver/bare-server.ts CONFIG.json`; prints
 * `listening on https://127.0.0.1:PORT`, stops on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
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
  const server = createServer({ cert: config.certPem, key: config.keyPem, ca: config.caPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
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

const configPath = process.argv[2];
if (configPath) main(configPath);
