/**
 * The keep-alive agents of this process's HTTP clients of the API server (the controller
 * manager's, the kubelets', the leader elections', the suite's own).
 *
 * Why not `new http.Agent({ keepAlive: true })`: such an agent keeps an idle connection for
 * ever, and it ignores the server's `Keep-Alive: timeout=N` header — Node lowers an agent's idle
 * timeout to N − 1 s only when the agent has one (lib/_http_agent.js, keepSocketAlive). The
 * server closes the connection once it has been idle for its keep-alive timeout (Node's default
 * 5 s), and a request the client writes on it at that moment is lost with ECONNRESET: the flake
 * hunt reproduced it with the reference API server and the suite's client, 41 requests of 100
 * sent about 6 s after the previous one (issue 16).
 *
 * With an idle timeout the client closes first: 1 s before a timeout the server announces, and
 * after IDLE_CONNECTION_TIMEOUT_MS for a server that announces none (Go's net/http, so
 * kube-apiserver, sends no Keep-Alive header).
 */
import http from 'node:http';
import https from 'node:https';

/**
 * Below kube-apiserver's idle timeout of 90 s, which it does not announce
 * (staging/src/k8s.io/apiserver/pkg/server/secure_serving.go, Serve: IdleTimeout 90 s), with a
 * margin for a client whose event loop is busy when its timer falls due.
 */
export const IDLE_CONNECTION_TIMEOUT_MS = 60_000;

/**
 * How many connections the controller manager's and the scheduler's clients open for their
 * requests (watches aside); more requests wait for one. client-go speaks HTTP/2 to kube-apiserver: one connection per client,
 * each request a stream on it (golang.org/x/net/http2, which client-go's transport enables), so
 * a kubelet starting a hundred pods at once does not open a hundred connections. Over HTTP/1.1
 * an agent without a cap does just that: with a hundred kubelets busy, thousands of connects at
 * once overflow the server's accept backlog and fail (ETIMEDOUT) or land on a socket the server
 * is closing (ECONNRESET) — node leases then go unrenewed and nodes turn NotReady.
 */
export const MAX_REQUEST_CONNECTIONS = 64;
/**
 * A kubelet's cap: a node's pods need few requests at once, and with a hundred nodes the
 * kubelets' connections would otherwise outnumber the scheduler's and controller manager's
 * (whose writes every pod waits for) a hundred to one at the server.
 */
export const KUBELET_REQUEST_CONNECTIONS = 4;

/**
 * An agent that keeps connections alive and drops an idle one before the server would.
 * `maxSockets` caps its connections (for requests; a watch holds its connection for as long as
 * it runs, so watches want an agent without a cap).
 */
export function keepAliveAgent(tls: false, options?: { maxSockets?: number }): http.Agent;
export function keepAliveAgent(tls: true, options?: https.AgentOptions): https.Agent;
export function keepAliveAgent(tls: boolean, options: https.AgentOptions = {}): http.Agent {
  const common = { keepAlive: true, timeout: IDLE_CONNECTION_TIMEOUT_MS };
  return tls ? new https.Agent({ ...options, ...common }) : new http.Agent({ ...(options.maxSockets ? { maxSockets: options.maxSockets } : {}), ...common });
}
