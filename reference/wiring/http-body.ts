/**
 * Reading Kubernetes API answers off node:http responses: whole bodies, JSON that may not be
 * JSON, and newline-delimited watch streams whose lines may span chunks. Shared by the
 * controller manager's client (api-client.ts) and the suite's client (adapters/kube).
 */
import type http from 'node:http';

export function readAll(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => resolve(text));
    res.on('error', reject);
  });
}

/** The parsed body, or undefined when it is empty or not JSON (a proxy's HTML error page, say). */
export function parseJson(text: string): any {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Splits a chunked stream into lines; a line may span chunks. Blank lines are skipped. */
export class LineReader {
  private buffered = '';
  constructor(private readonly onLine: (line: string) => void) {}

  take(chunk: string): void {
    this.buffered += chunk;
    let newline: number;
    while ((newline = this.buffered.indexOf('\n')) >= 0) {
      const line = this.buffered.slice(0, newline).trim();
      this.buffered = this.buffered.slice(newline + 1);
      if (line) this.onLine(line);
    }
  }
}
