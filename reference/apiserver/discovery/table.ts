/**
 * meta.k8s.io Table responses, which `kubectl get` asks for first
 * (Accept: application/json;as=Table;v=v1;g=meta.k8s.io, ...). Each row carries the object's
 * metadata as a PartialObjectMetadata (includeObject=Metadata, the default), the whole object
 * (includeObject=Object) or nothing (None), as upstream's table conversion does
 * (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/response.go asTable).
 */
import { DEFAULT_PRINTER, PRINTERS } from './printers.ts';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableOptions {
  apiVersion: string;
  resource: string;
  now_ms: number;
  includeObject: IncludeObject;
  /** Watch events after the first carry no column definitions (upstream leaves them out too). */
  withColumns: boolean;
  /** The printer, when not the resource's built-in one (a custom resource's, from its CRD). */
  printer?: import('./printers.ts').Printer;
}

function rowObject(obj: any, include: IncludeObject, apiVersion: string): unknown {
  if (include === 'None') return undefined;
  if (include === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata };
}

export function toTable(objects: any[], listMeta: Record<string, unknown>, opts: TableOptions): unknown {
  const printer = opts.printer ?? PRINTERS[opts.resource] ?? DEFAULT_PRINTER;
  const columnDefinitions = opts.withColumns
    ? printer.columns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: c.description ?? c.name, priority: c.priority ?? 0 }))
    : [];
  const rows = objects.map((o) => {
    const row: Record<string, unknown> = { cells: printer.cells(o, opts.now_ms) };
    const object = rowObject(o, opts.includeObject, opts.apiVersion);
    if (object !== undefined) row.object = object;
    return row;
  });
  return { kind: 'Table', apiVersion: opts.apiVersion, metadata: listMeta, columnDefinitions, rows };
}

export function includeObjectOf(raw: string | null): IncludeObject {
  return raw === 'None' || raw === 'Object' ? raw : 'Metadata';
}
