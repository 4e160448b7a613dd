// POST /markdown: the web pages' renderer, with references resolved in a project the caller can see.
import type { RequestContext } from '../../context.js'
import { previewMarkdown, type ReferenceBase } from './markdown.js'
import { findVisibleProject } from '../projects/projects.js'

export async function renderMarkdownFor(ctx: RequestContext, input: { text: string; gfm?: boolean; project?: string }): Promise<string> {
  // GitLab looks the project up (404 when hidden) whether or not gfm is on.
  const project = input.project === undefined ? undefined : findVisibleProject(ctx, input.project)
  // Plain CommonMark without gfm: references stay text.
  const base: ReferenceBase | undefined = input.gfm
    ? { baseUrl: ctx.baseUrl, projectPath: project ? `${project.ns_full_path}/${project.path}` : undefined }
    : undefined
  return previewMarkdown(ctx.app, input.text, base)
}
