// An editable view of a commit's tree that reads only the subtrees it touches and writes back only what changed.
import fs from 'node:fs'
import * as git from './iso.js'
import { readTreeItems } from './read.js'
import { GitError } from './types.js'

interface Entry { mode: string; oid: string; type: 'blob' | 'tree' | 'commit'; child?: Node }
interface Node { entries: Map<string, Entry>; dirty: boolean }

export class TreeEditor {
  private constructor(private readonly gitdir: string, private readonly root: Node) {}

  static async open(gitdir: string, treeOid: string | null): Promise<TreeEditor> {
    const root: Node = { entries: new Map(), dirty: false }
    if (treeOid) await TreeEditor.load(gitdir, treeOid, root)
    return new TreeEditor(gitdir, root)
  }

  private static async load(gitdir: string, oid: string, node: Node) {
    // Read through git's cat-file processes: isomorphic-git would read and keep the whole pack holding the tree.
    for (const e of await readTreeItems(gitdir, oid, '', false)) node.entries.set(e.name, { mode: e.mode, oid: e.oid, type: e.type })
  }

  private async dir(parts: string[], create: boolean): Promise<Node | null> {
    let node = this.root
    for (const part of parts) {
      let e = node.entries.get(part)
      if (!e) {
        if (!create) return null
        e = { mode: '040000', oid: '', type: 'tree', child: { entries: new Map(), dirty: true } }
        node.entries.set(part, e)
        node.dirty = true
      }
      if (e.type !== 'tree') {
        if (!create) return null
        throw new GitError('invalid', `A file with the name ${part} already exists where a directory is needed`)
      }
      if (!e.child) {
        e.child = { entries: new Map(), dirty: false }
        await TreeEditor.load(this.gitdir, e.oid, e.child)
      }
      node = e.child
    }
    return node
  }

  async get(path: string): Promise<Entry | null> {
    const parts = path.split('/')
    const node = await this.dir(parts.slice(0, -1), false)
    return node?.entries.get(parts[parts.length - 1]) ?? null
  }

  async set(path: string, oid: string, mode: string) {
    const parts = path.split('/')
    const node = (await this.dir(parts.slice(0, -1), true))!
    const name = parts[parts.length - 1]
    if (node.entries.get(name)?.type === 'tree') throw new GitError('invalid', `A directory with the name ${path} already exists`)
    node.entries.set(name, { mode, oid, type: 'blob' })
    this.markDirty(parts.slice(0, -1))
  }

  async remove(path: string) {
    const parts = path.split('/')
    const node = await this.dir(parts.slice(0, -1), false)
    if (!node?.entries.delete(parts[parts.length - 1])) return false
    this.markDirty(parts.slice(0, -1))
    return true
  }

  private markDirty(parts: string[]) {
    let node = this.root
    node.dirty = true
    for (const part of parts) {
      node = node.entries.get(part)!.child!
      node.dirty = true
    }
  }

  /** Writes changed trees bottom-up; empty directories vanish, as git cannot store them. */
  async write(): Promise<string> {
    return (await this.writeNode(this.root)) ?? (await git.writeTree({ fs, gitdir: this.gitdir, tree: [] }))
  }

  private async writeNode(node: Node): Promise<string | null> {
    const tree = []
    for (const [name, e] of node.entries) {
      if (e.type === 'tree' && e.child?.dirty) {
        const oid = await this.writeNode(e.child)
        if (!oid) continue
        e.oid = oid
      }
      tree.push({ mode: e.mode, path: name, oid: e.oid, type: e.type })
    }
    if (!tree.length) return null
    node.dirty = false
    return git.writeTree({ fs, gitdir: this.gitdir, tree })
  }
}
