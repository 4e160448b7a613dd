// Custom attributes of users, groups and projects (administrators only), the values `custom_attributes[key]=` filters on.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { ref, str } from '../params.js'

const Attribute = z.object({ key: z.string(), value: z.string() })

function attributeEndpoints(kind: 'users' | 'groups' | 'projects', noun: string) {
  const base = `/${kind}/:id/custom_attributes`
  return {
    list: defineEndpoint({ method: 'GET', path: base, summary: `List custom attributes of a ${noun}`, auth: 'admin', params: { id: ref() }, responses: { 200: z.array(Attribute) } }),
    get: defineEndpoint({ method: 'GET', path: `${base}/:key`, summary: `Get a custom attribute of a ${noun}`, auth: 'admin', params: { id: ref(), key: str() }, responses: { 200: Attribute } }),
    set: defineEndpoint({ method: 'PUT', path: `${base}/:key`, summary: `Set a custom attribute of a ${noun}`, auth: 'admin', params: { id: ref(), key: str() }, input: { value: str(10_000) }, responses: { 200: Attribute } }),
    remove: defineEndpoint({ method: 'DELETE', path: `${base}/:key`, summary: `Delete a custom attribute of a ${noun}`, auth: 'admin', params: { id: ref(), key: str() }, responses: { 204: null } }),
  }
}

const users = attributeEndpoints('users', 'user')
const groups = attributeEndpoints('groups', 'group')
const projects = attributeEndpoints('projects', 'project')

export const listUserCustomAttributes = users.list
export const getUserCustomAttribute = users.get
export const setUserCustomAttribute = users.set
export const deleteUserCustomAttribute = users.remove
export const listGroupCustomAttributes = groups.list
export const getGroupCustomAttribute = groups.get
export const setGroupCustomAttribute = groups.set
export const deleteGroupCustomAttribute = groups.remove
export const listProjectCustomAttributes = projects.list
export const getProjectCustomAttribute = projects.get
export const setProjectCustomAttribute = projects.set
export const deleteProjectCustomAttribute = projects.remove
