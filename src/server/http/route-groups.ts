// The router's routes in groups, one find-my-way tree each, built when a request first needs it. One tree of all 570
// routes was a fifth of `collab serve`'s start (find-my-way compiles a function per node); a group is the routes that
// agree on their first five segments, each a literal or a param (`/api/v4/projects/:id/issues…`), at most 65 routes.
import FindMyWay from 'find-my-way'
import type { RouteHandler, RouteMethod } from './router.js'

// GitLab matches API paths case-insensitively and with or without a trailing slash; params keep their case.
const newTree = () => FindMyWay({ caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 65_536 })
type Tree = ReturnType<typeof newTree>
type Found = NonNullable<ReturnType<Tree['find']>>

interface Route { method: RouteMethod; path: string; handler: RouteHandler }
interface Group { routes: Route[]; tree?: Tree }

/** Segments a group's routes agree on. */
const DEPTH = 5

/** A node of the segments' trie: literal children by their lower-cased text, one param child, the routes ending here. */
interface Node { literals: Map<string, Node>; param?: Node; wildcard?: Group; group?: Group }

const newNode = (): Node => ({ literals: new Map() })

/**
 * Asking the groups a path may be in depth first, literals before params before a wildcard at each segment, and
 * stopping at the first route found, walks the routes in the order one tree of all of them would: the same route wins.
 */
export class RouteGroups {
  private readonly root = newNode()
  /** Every route, for an absolute URL (`http://host/path`), which find-my-way reads the path of itself. */
  private readonly all: Group = { routes: [] }

  add(method: RouteMethod, path: string, handler: RouteHandler) {
    const route = { method, path, handler }
    for (const group of [groupFor(this.root, path), this.all]) {
      group.routes.push(route)
      if (group.tree) plant(group.tree, route)
    }
  }

  find(method: RouteMethod, path: string): Found | null {
    if (!path.startsWith('/')) return treeOf(this.all).find(method, path)
    const segments = leadingSegments(path)
    return segments && search(this.root, segments, 0, method, path)
  }
}

// The handler rides as the route's store: find-my-way's own handler type is node's bare request.
const plant = (tree: Tree, r: Route) => tree.on(r.method, r.path, noop, r.handler)
const noop = () => {}

function treeOf(group: Group): Tree {
  if (!group.tree) {
    group.tree = newTree()
    for (const route of group.routes) plant(group.tree, route)
  }
  return group.tree
}

function groupFor(root: Node, path: string): Group {
  // find-my-way reads `::` as a literal colon, `:name?` as an optional param and `%` in a literal as `%25`: none fits
  // a group by segments, nor does a wildcard that is not a whole segment.
  if (!path.startsWith('/') || /::|\?|%|[^/]\*|\*./.test(path)) throw new Error(`route ${path}: escaped colons, optional params, % and partial wildcards are not supported`)
  const segments = trimLastSlash(path).slice(1).split('/')
  let node = root
  for (let i = 0; i < Math.min(DEPTH, segments.length); i++) {
    const segment = segments[i]
    if (segment === '*') return (node.wildcard ??= { routes: [] })
    if (segment.includes(':')) node = node.param ??= newNode()
    else {
      const literal = segment.toLowerCase()
      let next = node.literals.get(literal)
      if (!next) node.literals.set(literal, (next = newNode()))
      node = next
    }
  }
  return (node.group ??= { routes: [] })
}

/**
 * The path's first segments (up to DEPTH) as find-my-way compares them with literals: up to a `?` or `#` (where it ends
 * the path), URL-decoded and lower-cased. An escape find-my-way keeps (`%2B`) is decoded here all the same: the literal
 * group it leads to holds no route that matches, and the search goes on. Null for a broken escape, which find-my-way
 * refuses too (the router then asks again with stray `%` escaped).
 */
function leadingSegments(path: string): string[] | null {
  const end = pathEnd(path)
  const segments = trimLastSlash(end === path.length ? path : path.slice(0, end)).slice(1).split('/', DEPTH)
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]
    if (!segment.includes('%')) segments[i] = segment.toLowerCase()
    else {
      try {
        segments[i] = decodeURIComponent(segment).toLowerCase()
      } catch {
        return null
      }
    }
  }
  return segments
}

/** Where find-my-way ends a path: its first `?` or `#` after the leading `/`. */
function pathEnd(path: string) {
  const q = path.indexOf('?', 1)
  const h = path.indexOf('#', 1)
  return q < 0 ? (h < 0 ? path.length : h) : h < 0 ? q : Math.min(q, h)
}

function search(node: Node, segments: string[], i: number, method: RouteMethod, path: string): Found | null {
  if (i === segments.length) return node.group ? treeOf(node.group).find(method, path) : null
  const literal = node.literals.get(segments[i])
  const found = (literal && search(literal, segments, i + 1, method, path)) || (node.param && search(node.param, segments, i + 1, method, path))
  if (found) return found
  return node.wildcard ? treeOf(node.wildcard).find(method, path) : null
}

/** As find-my-way compares paths with `ignoreTrailingSlash`: one trailing `/` dropped. */
const trimLastSlash = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path)
