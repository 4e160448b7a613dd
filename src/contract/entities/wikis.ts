// Wiki page shapes of api-v4.md §Wiki page: the list form without content, the full form, and an upload's answer.
import { z } from 'zod'

export const WikiPageBasic = z.object({
  format: z.string(),
  slug: z.string(),
  title: z.string(),
})

export const WikiPage = WikiPageBasic.extend({ content: z.string() })
export type WikiPage = z.infer<typeof WikiPage>

export const WikiAttachment = z.object({
  file_name: z.string(),
  file_path: z.string(),
  branch: z.string(),
  link: z.object({ url: z.string(), markdown: z.string() }),
})
export type WikiAttachment = z.infer<typeof WikiAttachment>
