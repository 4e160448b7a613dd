// Group labels (lib/api/group_labels.rb) and promoting a project label to one (PUT …/labels/:label_id/promote).
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Label } from '../entities/issues.js'
import { bool, int, ref, str, text } from '../params.js'

/** Entities::GroupLabel: a label without the project-only `priority` and `is_project_label`. */
export const GroupLabel = Label.omit({ priority: true, is_project_label: true })
export type GroupLabel = z.infer<typeof GroupLabel>

const Id = { id: ref() }
const LabelRef = { id: ref(), label_id: str(1024) }
const Scope = { include_ancestor_groups: bool().optional(), include_descendant_groups: bool().optional(), only_group_labels: bool().optional() }
// group_label_update_params' at_least_one_of, for a label found by id and by name alike.
const EDIT_AT_LEAST_ONE_OF = ['new_name', 'color', 'description', 'archived']
const EditInput = { new_name: str().optional(), color: str().optional(), description: text().optional(), archived: bool().optional() }

export const listGroupLabels = defineEndpoint({
  method: 'GET', path: '/groups/:id/labels', summary: 'List labels of a group', paginated: true,
  params: Id, input: { with_counts: bool().optional(), search: str().optional(), ...Scope }, responses: { 200: z.array(GroupLabel) },
})

export const getGroupLabel = defineEndpoint({
  method: 'GET', path: '/groups/:id/labels/:label_id', summary: 'Get a group label by id or name',
  params: LabelRef, input: Scope, responses: { 200: GroupLabel },
})

export const createGroupLabel = defineEndpoint({
  method: 'POST', path: '/groups/:id/labels', summary: 'Create a group label',
  params: Id, input: { name: str(), color: str(), description: text().optional(), archived: bool().optional() }, responses: { 201: GroupLabel },
})

export const editGroupLabel = defineEndpoint({
  method: 'PUT', path: '/groups/:id/labels/:label_id', summary: 'Edit a group label found by id or name',
  params: LabelRef, input: EditInput, atLeastOneOf: EDIT_AT_LEAST_ONE_OF, responses: { 200: GroupLabel },
})

export const editGroupLabelByName = defineEndpoint({
  method: 'PUT', path: '/groups/:id/labels', summary: 'Edit a group label named by `name` or `label_id` (python-gitlab)',
  params: Id, input: { name: str().optional(), label_id: int().optional(), ...EditInput }, atLeastOneOf: EDIT_AT_LEAST_ONE_OF, responses: { 200: GroupLabel },
})

export const deleteGroupLabel = defineEndpoint({
  method: 'DELETE', path: '/groups/:id/labels/:label_id', summary: 'Delete a group label found by id or name',
  params: LabelRef, responses: { 204: null },
})

export const deleteGroupLabelByName = defineEndpoint({
  method: 'DELETE', path: '/groups/:id/labels', summary: 'Delete a group label named by `name`',
  params: Id, input: { name: str().optional(), label_id: int().optional() }, responses: { 204: null },
})

export const subscribeGroupLabel = defineEndpoint({
  method: 'POST', path: '/groups/:id/labels/:label_id/subscribe', summary: 'Subscribe to a group label',
  params: LabelRef, responses: { 201: GroupLabel, 304: null },
})

export const unsubscribeGroupLabel = defineEndpoint({
  method: 'POST', path: '/groups/:id/labels/:label_id/unsubscribe', summary: 'Unsubscribe from a group label',
  params: LabelRef, responses: { 201: GroupLabel, 304: null },
})

export const promoteProjectLabel = defineEndpoint({
  method: 'PUT', path: '/projects/:id/labels/:label_id/promote', summary: "Promote a project label to a label of the project's group",
  params: LabelRef, responses: { 200: GroupLabel },
})
