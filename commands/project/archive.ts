// collab project archive [project]: archive a project (read-only until unarchived).
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { registerToggle, type Toggle } from './toggle.js'

export const toggle: Toggle = { action: 'archive', description: 'Archive a project (read-only until unarchived)', done: 'Archived' }

export const register = (group: Command, rt: Runtime) => registerToggle(group, rt, toggle)
