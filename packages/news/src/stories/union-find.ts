/** Disjoint sets over 0..n-1 with path halving and union by size. */
export class UnionFind {
  readonly parent: Uint32Array;
  private readonly size: Uint32Array;

  constructor(n: number) {
    this.parent = new Uint32Array(n);
    this.size = new Uint32Array(n).fill(1);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }

  find(x: number): number {
    const p = this.parent;
    while (p[x] !== x) {
      const up = p[p[x] as number] as number;
      p[x] = up;
      x = up;
    }
    return x;
  }

  union(a: number, b: number): void {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return;
    if ((this.size[ra] as number) < (this.size[rb] as number)) [ra, rb] = [rb, ra];
    this.parent[rb] = ra;
    this.size[ra] = (this.size[ra] as number) + (this.size[rb] as number);
  }
}
