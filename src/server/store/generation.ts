// A counter bumped by every write to users or tokens, so in-memory credential caches know when to forget.
let generation = 0

export const authGeneration = () => generation
export const bumpAuthGeneration = () => {
  generation++
}
