import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { keepAliveAgent } from './keep-alive.ts';

/** A server announcing `Keep-Alive: timeout=2` (it closes an idle connection after 2 s + Node's 1 s). */
async function shortKeepAliveServer(): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer({ keepAliveTimeout: 2_000 }, (req, res) => {
    req.resume();
    res.end('ok');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  return { server, port: (server.address() as AddressInfo).port };
}

function get(port: number, agent: http.Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, agent }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end();
  });
}

const idleSockets = (agent: http.Agent) => Object.values(agent.freeSockets).flat().length;

// Real time, on purpose: what is tested is Node's timers on real sockets. 1.5 s is after the
// client's timer (announced 2 s − 1 s) and well before the server's (3 s).
test('an idle connection is closed by the client before the server announced it would close it', async () => {
  const { server, port } = await shortKeepAliveServer();
  const ours = keepAliveAgent(false);
  const plain = new http.Agent({ keepAlive: true });
  try {
    await Promise.all([get(port, ours), get(port, plain)]);
    assert.equal(idleSockets(ours), 1);
    assert.equal(idleSockets(plain), 1);
    await sleep(1_500);
    assert.equal(idleSockets(ours), 0, 'the agent should have dropped its idle connection');
    assert.equal(idleSockets(plain), 1, 'a keep-alive agent without a timeout keeps it: the race this module exists for');
    await get(port, ours);
  } finally {
    ours.destroy();
    plain.destroy();
    server.closeAllConnections();
    server.close();
  }
});
