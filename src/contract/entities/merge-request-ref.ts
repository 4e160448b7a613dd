// Placeholder-free reference to merge requests from commit endpoints; the full entity arrives with the merge-request issue.
import { z } from 'zod'

export const MergeRequestRef = z.object({
  id: z.number().int(),
  iid: z.number().int(),
  project_id: z.number().int(),
  title: z.string(),
  state: z.string(),
  source_branch: z.string(),
  target_branch: z.string(),
  web_url: z.string(),
}).loose()
