// Pure work a fleet's devices repeat on the same input (the same compose archive, the same compose file), done once:
// a result is kept by a key that names the input exactly (its bytes' digest, or the text itself), the newest few only.
export class RecentResults<T> {
  private readonly kept = new Map<string, T>();

  constructor(private readonly size = 16) {}

  get(key: string, compute: () => T): T {
    const hit = this.kept.get(key);
    if (hit !== undefined || this.kept.has(key)) return hit as T;
    const value = compute();
    if (this.kept.size >= this.size) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, value);
    return value;
  }
}
