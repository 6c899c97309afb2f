/**
 * A binary min-heap of timed events. Ties on time break by insertion order, so two runs
 * that schedule the same events in the same order pop them in the same order.
 */
export class EventQueue<T> {
  private readonly heap: { at_ms: number; seq: number; item: T }[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(at_ms: number, item: T): void {
    this.heap.push({ at_ms, seq: this.seq++, item });
    this.siftUp(this.heap.length - 1);
  }

  peekTime(): number | undefined {
    return this.heap[0]?.at_ms;
  }

  pop(): { at_ms: number; item: T } | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (top === undefined || last === undefined) return undefined;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    const x = this.heap[a]!;
    const y = this.heap[b]!;
    return x.at_ms < y.at_ms || (x.at_ms === y.at_ms && x.seq < y.seq);
  }

  private swap(a: number, b: number): void {
    const t = this.heap[a]!;
    this.heap[a] = this.heap[b]!;
    this.heap[b] = t;
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = i;
      if (l < this.heap.length && this.less(l, smallest)) smallest = l;
      if (r < this.heap.length && this.less(r, smallest)) smallest = r;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }
}
