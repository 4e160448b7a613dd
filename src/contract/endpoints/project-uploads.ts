// Project uploads: POST a file (multipart), read it back by its secret and name (GitLab 17's markdown uploads API).
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { ref, str } from '../params.js'

const Id = { id: ref() }

/** A multipart part as the body parser hands it over; anything else under `file` is not a file. */
const file = () => z.custom<{ filename: string; mimeType: string; data: Buffer }>(
  (v) => typeof v === 'object' && v !== null && Buffer.isBuffer((v as { data?: unknown }).data), { error: 'is invalid' },
)

export const ProjectUpload = z.object({ alt: z.string(), url: z.string(), full_path: z.string(), markdown: z.string() })

export const uploadProjectFile = defineEndpoint({
  method: 'POST', path: '/projects/:id/uploads', summary: 'Upload a file to reference in markdown',
  params: Id, input: { file: file().optional() }, responses: { 201: ProjectUpload },
})

export const getProjectUpload = defineEndpoint({
  method: 'GET', path: '/projects/:id/uploads/:secret/:filename', summary: 'Download an uploaded file by its secret and name', auth: 'optional', raw: true,
  params: { ...Id, secret: str(64), filename: str(1024) }, responses: { 200: null },
})
