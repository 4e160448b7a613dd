// collab project star [project]: star a project.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { registerToggle, type Toggle } from './toggle.js'

export const toggle: Toggle = { action: 'star', description: 'Star a project', done: 'Starred', unchanged: 'Already starred' }

export const register = (group: Command, rt: Runtime) => registerToggle(group, rt, toggle)
