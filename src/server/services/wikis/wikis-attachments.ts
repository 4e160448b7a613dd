// Wiki attachments (GitLab's Wikis::CreateAttachmentService): a file committed under uploads/<32 hex>/ in the wiki.
import { randomBytes } from 'node:crypto'
import { CollabError } from '../../../core/errors.js'
import { sanitizeUploadName } from '../../../core/upload-name.js'
import type { RequestContext } from '../../context.js'
import { isValidNewRefName } from '../../git/read.js'
import { attachmentName, markdownLink } from '../../git/wiki-paths.js'
import type { ProjectView } from '../../store/projects.js'
import { commitToWiki, defaultWikiBranch, requireWikiWrite } from './wikis.js'

export interface UploadedFile { filename: string; data: Buffer }

export interface WikiAttachment {
  file_name: string
  file_path: string
  branch: string
  link: { url: string; markdown: string }
}

// Grape's words for a missing required parameter, as GitLab answers them here.
const fileMissing = () => new CollabError('MISSING_ATTRIBUTE', 'file is missing', { status: 400, body: { error: 'file is missing' } })
const nameEmpty = () => new CollabError('WIKI_ATTACHMENT_NAME', 'The file name cannot be empty', { status: 400 })
const badBranch = (branch: string) => new CollabError('WIKI_ATTACHMENT_BRANCH', `Invalid branch name: ${branch}`, { status: 400 })

export async function uploadAttachment(ctx: RequestContext, p: ProjectView, file: UploadedFile | undefined, branch?: string): Promise<WikiAttachment> {
  requireWikiWrite(ctx, p)
  if (!file) throw fileMissing()
  // The API's file parameter is GitLab's UploadedFile, whose name is sanitized before the service sees it.
  const name = file.filename ? attachmentName(sanitizeUploadName(file.filename)) : null
  if (!name) throw nameEmpty()
  const target = branch || (await defaultWikiBranch(ctx, p))
  if (!isValidNewRefName(target)) throw badBranch(target)
  const path = `uploads/${randomBytes(16).toString('hex')}/${name}`
  await commitToWiki(ctx, p, async (c) => {
    await c.tree.set(path, await c.writeBlob(file.data), '100644')
    return `Upload attachment ${name}`
  }, target)
  return { file_name: name, file_path: path, branch: target, link: { url: path, markdown: markdownLink(name, path) } }
}
