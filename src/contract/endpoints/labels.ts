// Project labels (compat-notes §2): found by id or by name; PUT and DELETE also take `name` without an id in the path.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Label } from '../entities/issues.js'
import { bool, int, ref, str, text } from '../params.js'

const Id = { id: ref() }
const LabelRef = { id: ref(), label_id: str(1024) }
const priority = () => z.preprocess((v) => (v === '' ? null : v), int().nullable())
// label_update_params' at_least_one_of, for a label found by id and by name alike.
const EDIT_AT_LEAST_ONE_OF = ['new_name', 'color', 'description', 'priority', 'archived']
const EditInput = { new_name: str().optional(), color: str().optional(), description: text().optional(), priority: priority().optional(), archived: bool().optional() }

export const listProjectLabels = defineEndpoint({
  method: 'GET', path: '/projects/:id/labels', summary: 'List labels of a project', paginated: true,
  params: Id, input: { with_counts: bool().optional(), include_ancestor_groups: bool().optional(), search: str().optional() },
  responses: { 200: z.array(Label) },
})

export const getProjectLabel = defineEndpoint({
  method: 'GET', path: '/projects/:id/labels/:label_id', summary: 'Get a label by id or name',
  params: LabelRef, responses: { 200: Label },
})

export const createProjectLabel = defineEndpoint({
  method: 'POST', path: '/projects/:id/labels', summary: 'Create a label',
  params: Id, input: { name: str(), color: str(), description: text().optional(), priority: priority().optional() },
  responses: { 201: Label },
})

export const editProjectLabel = defineEndpoint({
  method: 'PUT', path: '/projects/:id/labels/:label_id', summary: 'Edit a label found by id or name',
  params: LabelRef, input: EditInput, atLeastOneOf: EDIT_AT_LEAST_ONE_OF, responses: { 200: Label },
})

export const editProjectLabelByName = defineEndpoint({
  method: 'PUT', path: '/projects/:id/labels', summary: 'Edit a label named by `name` (python-gitlab)',
  params: Id, input: { name: str().optional(), label_id: int().optional(), ...EditInput }, atLeastOneOf: EDIT_AT_LEAST_ONE_OF, responses: { 200: Label },
})

export const deleteProjectLabel = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/labels/:label_id', summary: 'Delete a label found by id or name',
  params: LabelRef, responses: { 204: null },
})

export const deleteProjectLabelByName = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/labels', summary: 'Delete a label named by `name`',
  params: Id, input: { name: str().optional(), label_id: int().optional() }, responses: { 204: null },
})
