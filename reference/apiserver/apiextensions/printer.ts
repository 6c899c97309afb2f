/**
 * `kubectl get` columns for custom resources: Name, then the version's additionalPrinterColumns,
 * each cell read at its jsonPath; with none declared, one Age column of type date
 * (staging/src/k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor). A
 * jsonPath here is the simple dotted form CRDs use (`.spec.replicas`, `.status.conditions[0].type`).
 */
import type { Printer } from '../discovery/printers.ts';
import type { ResourceDef } from '../resources/registry.ts';

export interface PrinterColumn {
  name: string;
  type: string;
  jsonPath: string;
  format?: string;
  description?: string;
  priority?: number;
}

const AGE_COLUMN: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };
const COLUMN_TYPES = new Set(['integer', 'number', 'string', 'boolean', 'date']);

function read(obj: unknown, path: string): unknown {
  const steps = path.replace(/^\./, '').split(/\.|\[(\d+)\]/).filter((s) => s !== undefined && s !== '');
  let cur: any = obj;
  for (const step of steps) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = cur[step];
  }
  return cur;
}

/** The table printer of a custom resource's version. */
export function customPrinter(def: ResourceDef): Printer {
  const declared = def.custom?.printerColumns ?? [];
  const columns = declared.length > 0 ? declared : [AGE_COLUMN];
  return {
    columns: [
      { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.' },
      ...columns.map((c) => ({ name: c.name, type: (COLUMN_TYPES.has(c.type) ? c.type : 'string') as any, format: c.format ?? '', description: c.description ?? c.name, priority: c.priority ?? 0 })),
    ],
    cells: (obj) => [obj.metadata?.name ?? '', ...columns.map((c) => {
      const v = read(obj, c.jsonPath);
      return v === undefined || (typeof v === 'object' && v !== null) ? (v === undefined ? null : JSON.stringify(v)) : v;
    })],
  };
}
