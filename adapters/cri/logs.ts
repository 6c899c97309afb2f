/**
 * A container's output as a CRI runtime writes it: one line per record in the CRI log format,
 * `<RFC3339Nano time> <stdout|stderr> <F|P> <text>` (F: a full line, P: a partial one, joined
 * with the next) — kubernetes/kubernetes pkg/kubelet/kuberuntime/logs/logs.go parseCRILog.
 */
import fs from 'node:fs';

export interface LogLine {
  at_ms: number;
  stream: 'stdout' | 'stderr';
  text: string;
}

export function parseCriLog(content: string): LogLine[] {
  const out: LogLine[] = [];
  let partial = '';
  for (const record of content.split('\n')) {
    const m = /^(\S+) (stdout|stderr) ([FP]) ?(.*)$/.exec(record);
    if (!m) continue;
    partial += m[4];
    if (m[3] === 'P') continue;
    out.push({ at_ms: Date.parse(m[1]!), stream: m[2] as LogLine['stream'], text: partial });
    partial = '';
  }
  return out;
}

export function criLogLines(file: string | undefined): LogLine[] {
  if (!file) return [];
  try {
    return parseCriLog(fs.readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
}
