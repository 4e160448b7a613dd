// collab auth: log in to an instance, check, print and remove stored tokens.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as gitCredential from './git-credential.js'
import * as login from './login.js'
import * as logout from './logout.js'
import * as status from './status.js'
import * as token from './token.js'

export const summary = 'Log in to an instance, check and remove stored tokens'

export function register(group: Command, rt: Runtime): void {
  login.register(group, rt)
  status.register(group, rt)
  logout.register(group, rt)
  token.register(group, rt)
  gitCredential.register(group, rt)
}
