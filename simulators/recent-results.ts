// Pure work a fleet's devices repeat on the same input (the same compose archive, the same compose file), done once:
// a result is kept by a key that names the input exactly (its bytes' digest, the text itself, a device's id), the
// most recently used few only.
export class RecentResults<T> {
  private readonly kept = new Map<string, T>();

  constructor(private readonly size = 16) {}

  get(key: string, compute: () => T): T {
    const hit = this.kept.get(key);
    if (hit !== undefined || this.kept.has(key)) {
      // Used again: the newest now (Map keeps insertion order, so the first key is the least recently used).
      this.kept.delete(key);
      this.kept.set(key, hit as T);
      return hit as T;
    }
    const value = compute();
    if (this.kept.size >= this.size) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, value);
    return value;
  }
}
