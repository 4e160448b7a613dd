// A least-recently-used map bounded by the bytes of its values (and of any one value), for caches of immutable data
// such as git objects by id: memory stays under the bound whatever is read.
export class ByteCache<V> {
  private readonly entries = new Map<string, V>()
  private used = 0

  constructor(private readonly maxBytes: number, private readonly maxEntryBytes: number, private readonly sizeOf: (value: V) => number) {}

  get bytes() { return this.used }

  get(key: string): V | undefined {
    const value = this.entries.get(key)
    if (value === undefined) return undefined
    // Map order is the eviction order: a hit goes last.
    this.entries.delete(key)
    this.entries.set(key, value)
    return value
  }

  set(key: string, value: V) {
    const size = this.sizeOf(value)
    if (size > this.maxEntryBytes) return
    this.delete(key)
    this.entries.set(key, value)
    this.used += size
    for (const [k, v] of this.entries) {
      if (this.used <= this.maxBytes) break
      this.entries.delete(k)
      this.used -= this.sizeOf(v)
    }
  }

  delete(key: string) {
    const old = this.entries.get(key)
    if (old === undefined) return
    this.entries.delete(key)
    this.used -= this.sizeOf(old)
  }

  /** Drops every entry whose key starts with `prefix`. */
  deletePrefix(prefix: string) {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.delete(key)
  }
}
