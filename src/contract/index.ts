// The whole v4 contract: every endpoint declaration, keyed by name.
// A resource group is declared by writing its module in endpoints/: scripts/registries.mjs lists every module there in
// endpoints.generated.ts (group name from the file name: merge-request-actions.ts -> mergeRequestActions), and the
// server mounts the group with the handlers that name it (src/server/handlers.generated.ts).
import * as groups from './endpoints.generated.js'

type Endpoints<T> = { [K in keyof T as T[K] extends { method: string; path: string } ? K : never]: T[K] }
type Groups = typeof groups

/** A module's endpoint declarations, without the schemas and helpers it also exports. */
const pick = <T extends object>(mod: T) =>
  Object.fromEntries(Object.entries(mod).filter(([, v]) => v && typeof v === 'object' && 'method' in v && 'path' in v)) as Endpoints<T>

export const contract = Object.fromEntries(Object.entries(groups).map(([group, mod]) => [group, pick(mod)])) as {
  [G in keyof Groups]: Endpoints<Groups[G]>
}

export type ContractTree = typeof contract
export { defineEndpoint } from './define.js'
