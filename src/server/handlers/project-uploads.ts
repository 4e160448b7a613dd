// Project uploads: the markdown attachment of a file, and the file served back.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { findVisibleProject } from '../services/projects/index.js'
import { readUpload, uploadFile } from '../services/markup/index.js'

export const projectUploadHandlers = {
  uploadProjectFile: async (input, ctx) => ({ status: 201, body: await uploadFile(ctx, findVisibleProject(ctx, input.id), input.file) }),

  getProjectUpload: async (input, ctx) => {
    const u = await readUpload(ctx, findVisibleProject(ctx, input.id), input.secret, input.filename)
    return {
      status: 200, raw: u.content,
      headers: {
        'Content-Type': u.contentType, 'Content-Length': String(u.content.length), 'X-Content-Type-Options': 'nosniff',
        'Content-Disposition': `${u.inline ? 'inline' : 'attachment'}; filename="${u.name}"`, 'Cache-Control': 'private, max-age=0',
      },
    }
  },
} satisfies Handlers<typeof contract.projectUploads>
