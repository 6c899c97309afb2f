/** A binary heap with removal by key: the scheduling queue's active and backoff queues. */
export class KeyedHeap<T> {
  private readonly items: T[] = [];
  private readonly index = new Map<string, number>();

  constructor(private readonly keyOf: (item: T) => string, private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }
  has(key: string): boolean {
    return this.index.has(key);
  }
  get(key: string): T | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.items[i];
  }
  peek(): T | undefined {
    return this.items[0];
  }
  values(): readonly T[] {
    return this.items;
  }

  /** Adds, or replaces the item with the same key. */
  push(item: T): void {
    const key = this.keyOf(item);
    const at = this.index.get(key);
    if (at !== undefined) {
      this.items[at] = item;
      this.fix(at);
      return;
    }
    this.items.push(item);
    this.index.set(key, this.items.length - 1);
    this.up(this.items.length - 1);
  }

  pop(): T | undefined {
    if (this.items.length === 0) return undefined;
    const top = this.items[0]!;
    this.removeAt(0);
    return top;
  }

  remove(key: string): T | undefined {
    const at = this.index.get(key);
    if (at === undefined) return undefined;
    const item = this.items[at]!;
    this.removeAt(at);
    return item;
  }

  private removeAt(i: number): void {
    const last = this.items.length - 1;
    this.index.delete(this.keyOf(this.items[i]!));
    if (i !== last) {
      this.items[i] = this.items[last]!;
      this.index.set(this.keyOf(this.items[i]!), i);
    }
    this.items.pop();
    if (i < this.items.length) this.fix(i);
  }

  private fix(i: number): void {
    this.up(i);
    this.down(i);
  }

  private swap(i: number, j: number): void {
    const a = this.items[i]!;
    const b = this.items[j]!;
    this.items[i] = b;
    this.items[j] = a;
    this.index.set(this.keyOf(b), i);
    this.index.set(this.keyOf(a), j);
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(this.items[i]!, this.items[parent]!)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.items.length && this.less(this.items[l]!, this.items[m]!)) m = l;
      if (r < this.items.length && this.less(this.items[r]!, this.items[m]!)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}
