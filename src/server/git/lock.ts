// One writer at a time per repository: API commits, ref updates and receive-pack queue here, so no update is lost.
const tails = new Map<string, Promise<unknown>>()

export async function withRepoLock<T>(gitdir: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(gitdir) ?? Promise.resolve()
  let release!: () => void
  const mine = new Promise<void>((resolve) => (release = resolve))
  const tail = previous.then(() => mine)
  tails.set(gitdir, tail)
  await previous.catch(() => undefined)
  try {
    return await fn()
  } finally {
    release()
    if (tails.get(gitdir) === tail) tails.delete(gitdir)
  }
}
