// Custom attributes of users, groups and projects.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import * as attributes from '../services/projects/index.js'

function handlersFor(subject: attributes.Subject) {
  return {
    list: (input: { id: string }, ctx: RequestContext) => ({ status: 200, body: attributes.listAttributes(ctx, subject, input.id) }),
    get: (input: { id: string; key: string }, ctx: RequestContext) => ({ status: 200, body: attributes.getAttribute(ctx, subject, input.id, input.key) }),
    set: (input: { id: string; key: string; value: string }, ctx: RequestContext) =>
      ({ status: 200, body: attributes.setAttribute(ctx, subject, input.id, input.key, input.value) }),
    remove: (input: { id: string; key: string }, ctx: RequestContext) => {
      attributes.deleteAttribute(ctx, subject, input.id, input.key)
      return { status: 204 }
    },
  }
}

const u = handlersFor('user')
const g = handlersFor('group')
const p = handlersFor('project')

export const customAttributeHandlers = {
  listUserCustomAttributes: u.list, getUserCustomAttribute: u.get, setUserCustomAttribute: u.set, deleteUserCustomAttribute: u.remove,
  listGroupCustomAttributes: g.list, getGroupCustomAttribute: g.get, setGroupCustomAttribute: g.set, deleteGroupCustomAttribute: g.remove,
  listProjectCustomAttributes: p.list, getProjectCustomAttribute: p.get, setProjectCustomAttribute: p.set, deleteProjectCustomAttribute: p.remove,
} satisfies Handlers<typeof contract.customAttributes>
