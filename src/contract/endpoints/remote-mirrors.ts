// Push mirrors (GitLab's lib/api/remote_mirrors.rb): list, get, create, update, delete and sync; Maintainers only.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { RemoteMirror } from '../entities/remote-mirrors.js'
import { bool, int, oneOf, ref, str } from '../params.js'

const Id = { id: ref() }
const MirrorRef = { ...Id, mirror_id: int() }

const Settings = {
  enabled: bool().optional(),
  auth_method: oneOf(['ssh_public_key', 'password']).optional(),
  keep_divergent_refs: bool().optional(),
  only_protected_branches: bool().optional(),
  mirror_branch_regex: str().nullable().optional(),
}

export const listRemoteMirrors = defineEndpoint({
  method: 'GET', path: '/projects/:id/remote_mirrors', summary: "List a project's push mirrors", paginated: true, params: Id,
  responses: { 200: z.array(RemoteMirror) },
})

export const getRemoteMirror = defineEndpoint({
  method: 'GET', path: '/projects/:id/remote_mirrors/:mirror_id', summary: 'Get a push mirror', params: MirrorRef,
  responses: { 200: RemoteMirror },
})

export const createRemoteMirror = defineEndpoint({
  method: 'POST', path: '/projects/:id/remote_mirrors', summary: 'Create a push mirror (credentials in the URL are sealed and never shown)',
  params: Id, input: { url: str(2048), ...Settings }, responses: { 201: RemoteMirror },
})

export const updateRemoteMirror = defineEndpoint({
  method: 'PUT', path: '/projects/:id/remote_mirrors/:mirror_id', summary: "Update a push mirror's settings", params: MirrorRef,
  input: Settings, responses: { 200: RemoteMirror },
})

export const deleteRemoteMirror = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/remote_mirrors/:mirror_id', summary: 'Delete a push mirror', params: MirrorRef,
  responses: { 204: null },
})

export const syncRemoteMirror = defineEndpoint({
  method: 'POST', path: '/projects/:id/remote_mirrors/:mirror_id/sync', summary: 'Push to a mirror now (in the background)',
  params: MirrorRef, responses: { 204: null },
})
