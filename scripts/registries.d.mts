// Types of scripts/registries.mjs, for the tests that run it.
export interface Registries {
  /** Each generated file's path (from the root) and text. */
  files: Record<string, string>
  /** What keeps a declaration from being mounted, one sentence each; empty when all is well. */
  problems: string[]
}
export function registries(root?: string): Registries
export function writeRegistries(): void
