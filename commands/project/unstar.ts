// collab project unstar [project]: remove your star from a project.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { registerToggle, type Toggle } from './toggle.js'

export const toggle: Toggle = { action: 'unstar', description: 'Remove your star from a project', done: 'Unstarred', unchanged: 'Not starred' }

export const register = (group: Command, rt: Runtime) => registerToggle(group, rt, toggle)
