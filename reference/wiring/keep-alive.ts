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

/** An agent that keeps connections alive and drops an idle one before the server would. */
export function keepAliveAgent(tls: false): http.Agent;
export function keepAliveAgent(tls: true, options?: https.AgentOptions): https.Agent;
export function keepAliveAgent(tls: boolean, options: https.AgentOptions = {}): http.Agent {
  const common = { keepAlive: true, timeout: IDLE_CONNECTION_TIMEOUT_MS };
  return tls ? new https.Agent({ ...options, ...common }) : new http.Agent(common);
}
