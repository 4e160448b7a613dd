// collab project unarchive [project]: unarchive a project.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { registerToggle, type Toggle } from './toggle.js'

export const toggle: Toggle = { action: 'unarchive', description: 'Unarchive a project', done: 'Unarchived' }

export const register = (group: Command, rt: Runtime) => registerToggle(group, rt, toggle)
