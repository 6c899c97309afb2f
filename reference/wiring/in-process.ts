/**
 * An in-process connection to the API server, for the reference cluster's own components on
 * virtual time (the controller manager, its leader election, the scheduler, kube-proxy and
 * kubelets that authenticate with a token).
 *
 * A request is handed to the server's own entry (`ApiServer.handle`, which its HTTP handler
 * calls too) with the method, path, headers and body bytes it would carry over HTTP, so it passes
 * the whole pipeline — authentication by its bearer token, the in-flight limits, RBAC, admission,
 * storage, watch — and the answer comes back as the bytes HTTP would carry. Only the HTTP/1.1
 * framing and the loopback socket are skipped: they were about a third of a suite run's CPU.
 * The steps, kubectl, `kubespec serve`, every client of a real target, and anything that
 * authenticates with a TLS client certificate (the certificate is verified by the TLS layer)
 * still speak real HTTP.
 *
 * Answers and watch events arrive on a later turn of the event loop (setImmediate, first in
 * first out), as a socket delivers them: never inside the server's own write, so no component
 * runs in the middle of a fan-out, and the events a write fans out arrive before its writer's
 * answer, as on loopback HTTP (server.ts's streamSink).
 */
import { bodyBytes, type ApiServer } from '../apiserver/server.ts';
import type { ApiRequest, Answer } from '../apiserver/types.ts';
import type { WatchEvent, WatchStreamHandlers } from '../controllers/informer.ts';
import { LineReader, parseJson } from './http-body.ts';
import { cloneJson } from '../json-value.ts';

export type ApiHandle = ApiServer['handle'];

export interface InProcessAnswer {
  status: number;
  /** The body as HTTP would carry it (JSON text with its trailing newline). */
  readonly text: string;
  headers: Record<string, string>;
  /**
   * The body as a client's parse of `text` gives it (http-body.ts parseJson: undefined when it
   * is not JSON) — for an object body, copied without making the text (cloneJson is that round
   * trip): the server's stringify and the client's parse of every answer were some 3 % of a
   * fleet's CPU.
   */
  json(): any;
}

/**
 * An answer as the client reads it. An object body is copied when the answer is made (the copy
 * the client's parse would have made of the text written then: cloneJson is that round trip), and
 * its text is made only if someone reads it.
 */
class ReplyAnswer implements InProcessAnswer {
  private madeText: string | undefined;
  /** The object body's copy, handed over by the first json(). */
  private readonly copy: unknown;
  private handedOver = false;

  constructor(
    readonly status: number,
    private readonly body: unknown,
    readonly headers: Record<string, string>,
  ) {
    // bodyBytes writes an object as its JSON; text and bytes go as they are.
    if (typeof body === 'object' && body !== null && !(body instanceof Uint8Array)) this.copy = cloneJson(body);
  }

  get text(): string {
    // Once the copy is the client's, the text comes from the server's own body (which no one
    // changes after answering: it is fresh or frozen).
    return (this.madeText ??= bodyText(this.handedOver ? this.body : (this.copy ?? this.body)));
  }

  json(): any {
    if (this.copy === undefined) return parseJson(this.text);
    // The copy is the first caller's to change; a later one copies the server's own body.
    if (this.handedOver) return cloneJson(this.body);
    this.handedOver = true;
    return this.copy;
  }
}

export interface InProcessStreamHandlers {
  /** Each line of a watch stream, as the client's line reader would split it. */
  onLine(line: string): void;
  /**
   * Each event of a JSON watch stream as the object its line is the text of, shared with the
   * server and other watchers (read or copy it); given, the events of a JSON stream come here
   * instead of onLine.
   */
  onEvent?(ev: unknown): void;
  /** The server refused the watch: its status and body. */
  onRefused(status: number, text: string): void;
  /** The stream ended: by the server (no error), or because the connection was closed. */
  onEnd(error?: Error): void;
}

const EMPTY = new Uint8Array(0);
const decoder = new TextDecoder();

/** A body as the HTTP handler writes it (server.ts bodyBytes), as text. */
function bodyText(body: unknown): string {
  const bytes = bodyBytes(body);
  return typeof bytes === 'string' ? bytes : decoder.decode(bytes);
}

export class InProcessConnection {
  /** Ends each open stream with an error: what closing a connection does to a watch on it. */
  private readonly open = new Set<(error: Error) => void>();

  constructor(private readonly handle: ApiHandle) {}

  async request(method: string, path: string, headers: Record<string, string>, text?: string): Promise<InProcessAnswer> {
    const req: ApiRequest = { method, url: path, headers, body: text === undefined ? EMPTY : Buffer.from(text, 'utf8') };
    let answer: InProcessAnswer;
    try {
      const { status, headers: extra, answer: a } = await this.handle(req);
      answer = new ReplyAnswer(status, a.kind === 'reply' ? a.body : '', { ...a.headers, ...extra });
    } catch {
      // What the HTTP handler answers when the core throws.
      answer = new ReplyAnswer(500, '', {});
    }
    await new Promise<void>((done) => setImmediate(done));
    return answer;
  }

  /** A streaming GET (a watch). Returns the function that stops it, as destroying the request does. */
  watch(path: string, headers: Record<string, string>, handlers: InProcessStreamHandlers): () => void {
    let over = false;
    let stopServer: (() => void) | undefined;
    const finish = (error?: Error): void => {
      if (over) return;
      over = true;
      this.open.delete(abort);
      stopServer?.();
      handlers.onEnd(error);
    };
    const abort = (error: Error): void => finish(error);
    this.open.add(abort);
    const lines = new LineReader((line) => !over && handlers.onLine(line));
    this.handle({ method: 'GET', url: path, headers, body: EMPTY }).then(
      ({ status, answer }) => {
        if (over) return;
        if (answer.kind === 'reply') {
          const text = bodyText(answer.body);
          setImmediate(() => {
            if (over) return;
            over = true;
            this.open.delete(abort);
            handlers.onRefused(status, text);
          });
          return;
        }
        const onEvent = handlers.onEvent?.bind(handlers);
        stopServer = startStream(answer, {
          write: (line) => setImmediate(() => !over && lines.take(typeof line === 'string' ? line : decoder.decode(line))),
          ...(onEvent ? { writeEvent: (ev: unknown) => setImmediate(() => !over && onEvent(ev)) } : {}),
          end: () => setImmediate(() => finish()),
        });
      },
      (error: Error) => setImmediate(() => finish(error)),
    );
    return () => {
      over = true;
      this.open.delete(abort);
      stopServer?.();
    };
  }

  /**
   * A watch as a client's informer wants it: each line parsed as an event, a line that is not
   * JSON ending the stream with its error, a refusal ending it with `refused`'s error, and one end
   * at most. Stopping it ends nothing (the client stopped it). The events of a JSON stream come as
   * the server's own objects, decoded once from the store and frozen (watch/events.ts
   * sharedDecode), the same object to every watcher (anything not frozen, e.g. a Status, is
   * copied as parsing would): a JSON.parse per watcher per event, then a
   * copy per watcher per event, were each some 3–5 % of a fleet's CPU. A component that wrote to
   * an object from its cache would throw here — as upstream's cache mutation detector
   * (KUBE_CACHE_MUTATION_DETECTOR) would fail it — instead of changing every other cache's copy.
   */
  watchEvents(path: string, headers: Record<string, string>, handlers: WatchStreamHandlers, refused: (status: number, text: string) => Error): () => void {
    let over = false;
    const end = (error?: Error): void => {
      if (over) return;
      over = true;
      handlers.onEnd(error);
    };
    const deliver = (event: () => WatchEvent): void => {
      if (over) return;
      try {
        handlers.onEvent(event());
      } catch (error) {
        stop();
        end(error as Error);
      }
    };
    const stop = this.watch(path, headers, {
      onLine: (line) => deliver(() => JSON.parse(line)),
      onEvent: (ev) => deliver(() => (Object.isFrozen((ev as WatchEvent).object) ? ev : cloneJson(ev)) as WatchEvent),
      onRefused: (status, text) => end(refused(status, text)),
      onEnd: end,
    });
    return () => {
      over = true;
      stop();
    };
  }

  /** Closes the connection: every open watch ends with an error, as a destroyed agent's do. */
  close(): void {
    for (const abort of [...this.open]) abort(new Error('the connection closed mid-stream'));
  }
}

function startStream(answer: Extract<Answer, { kind: 'stream' }>, sink: { write(line: string | Uint8Array): void; end(): void }): () => void {
  return answer.start(sink);
}
