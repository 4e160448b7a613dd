// Search hits that have no presenter of their own: blob chunks as GitLab's Entities::Blob.
import type { BlobHit } from '../services/markup/search.js'

/** `basename` is the path without its extension, as GitLab's FoundBlob has it. */
export const presentSearchBlob = (b: BlobHit) => ({
  basename: b.path.replace(/(?<=[^/])\.[^./]*$/, ''), data: b.data, path: b.path, filename: b.path, id: null, ref: b.ref,
  startline: b.startline, project_id: b.project_id,
})
