/**
 * What every table printer is made of: a column, a printer, and the Name and Age columns with
 * upstream's descriptions (pkg/printers/internalversion/printers.go).
 */
import { age } from './age.ts';

export interface Column {
  name: string;
  type: 'string' | 'integer' | 'boolean' | 'date';
  format?: string;
  priority?: number;
  description?: string;
}

export interface Printer {
  columns: Column[];
  cells(obj: any, now_ms: number): unknown[];
}

export const NAME: Column = { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.' };
export const AGE: Column = { name: 'Age', type: 'string', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.' };
export const col = (name: string, type: Column['type'] = 'string', priority = 0): Column => ({ name, type, priority });
export const created = (o: any, now: number) => age(o.metadata?.creationTimestamp, now);
