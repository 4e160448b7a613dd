// Branches, tags, tree and files (compat-notes §2).
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Branch, Commit, RepositoryFile, Tag, TreeEntry } from '../entities/repository.js'
import { bool, oneOf, ref, str, text } from '../params.js'

const Id = { id: ref() }

export const listBranches = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/repository/branches', summary: 'List branches', auth: 'optional', paginated: true,
  params: Id, input: { search: str().optional(), regex: str().optional() }, responses: { 200: z.array(Branch) },
})

export const getBranch = defineEndpoint({
  method: 'GET', path: '/projects/:id/repository/branches/:branch', summary: 'Get a branch', auth: 'optional',
  params: { ...Id, branch: str(1024) }, responses: { 200: Branch },
})

export const createBranch = defineEndpoint({
  method: 'POST', path: '/projects/:id/repository/branches', summary: 'Create a branch from a ref',
  params: Id, input: { branch: str(1024), ref: str(1024) }, responses: { 201: Branch },
})

export const deleteBranch = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/repository/branches/:branch', summary: 'Delete a branch',
  params: { ...Id, branch: str(1024) }, responses: { 204: null },
})

export const listTags = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/repository/tags', summary: 'List tags', auth: 'optional', paginated: true,
  params: Id, input: { search: str().optional(), order_by: oneOf(['name', 'updated', 'version']).optional(), sort: oneOf(['asc', 'desc']).optional() },
  responses: { 200: z.array(Tag) },
})

export const getTag = defineEndpoint({
  method: 'GET', path: '/projects/:id/repository/tags/:tag_name', summary: 'Get a tag', auth: 'optional',
  params: { ...Id, tag_name: str(1024) }, responses: { 200: Tag },
})

export const createTag = defineEndpoint({
  method: 'POST', path: '/projects/:id/repository/tags', summary: 'Create a tag (annotated when a message is given)',
  params: Id, input: { tag_name: str(1024), ref: str(1024), message: text().optional() }, responses: { 201: Tag },
})

export const deleteTag = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/repository/tags/:tag_name', summary: 'Delete a tag',
  params: { ...Id, tag_name: str(1024) }, responses: { 204: null },
})

export const listTree = defineEndpoint({
  method: 'GET', path: '/projects/:id/repository/tree', summary: 'List files and directories of a tree', auth: 'optional', paginated: true,
  params: Id, input: { path: str(4096).optional(), ref: str(1024).optional(), recursive: bool().optional() },
  responses: { 200: z.array(TreeEntry) },
})

export const getFile = defineEndpoint({
  method: 'GET', path: '/projects/:id/repository/files/:file_path', summary: 'Get a file with its base64 content and metadata', auth: 'optional',
  params: { ...Id, file_path: str(4096) }, input: { ref: str(1024).optional() }, responses: { 200: RepositoryFile },
})

export const getRawFile = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/repository/files/:file_path/raw', summary: 'Get the raw bytes of a file', auth: 'optional', raw: true,
  params: { ...Id, file_path: str(4096) }, input: { ref: str(1024).optional(), lfs: bool().optional() }, responses: { 200: null },
})

const FileWrite = {
  branch: str(1024), commit_message: text(), start_branch: str(1024).optional(), encoding: oneOf(['text', 'base64']).optional(),
  author_email: str().optional(), author_name: str().optional(), last_commit_id: str(64).optional(), execute_filemode: bool().optional(),
}

export const createFile = defineEndpoint({
  method: 'POST', path: '/projects/:id/repository/files/:file_path', summary: 'Create a file in a commit',
  params: { ...Id, file_path: str(4096) }, input: { ...FileWrite, content: z.string({ error: 'is invalid' }) },
  responses: { 201: z.object({ file_path: z.string(), branch: z.string() }) },
})

export const updateFile = defineEndpoint({
  method: 'PUT', path: '/projects/:id/repository/files/:file_path', summary: 'Update a file in a commit',
  params: { ...Id, file_path: str(4096) }, input: { ...FileWrite, content: z.string({ error: 'is invalid' }) },
  responses: { 200: z.object({ file_path: z.string(), branch: z.string() }) },
})

export const deleteFile = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/repository/files/:file_path', summary: 'Delete a file in a commit',
  params: { ...Id, file_path: str(4096) }, input: FileWrite, responses: { 204: null },
})

