// Where the memory a harness still held as it exited was allocated: a V8 sampling heap profile
// (`node --heap-prof`, written at exit, with the samples of objects still alive) read against
// the bundle. Each live byte is charged to the innermost frame of the harness's own code on its
// stack (a JSON.parse inside the transport is the transport's), then summed by package.
import type { Bundle } from './bundle.js'
import { inBundle, moduleLocator, packageOf } from './bundle-map.js'
import { round } from './processes.js'

interface Frame {
  functionName: string
  url: string
  lineNumber: number
}

interface ProfileNode {
  callFrame: Frame
  selfSize: number
  children: ProfileNode[]
}

/** The sampled heap profile V8 writes (.heapprofile). */
export interface HeapProfile {
  head: ProfileNode
}

/** A Markdown table of the `top` allocation sites by live bytes, then the totals by package. */
export function liveAllocations(profile: HeapProfile, bundle: Bundle, top: number): string {
  const locate = moduleLocator(bundle)
  const sites = new Map<string, number>()
  const packages = new Map<string, number>()
  let total = 0
  const walk = (node: ProfileNode, owner: Frame | null) => {
    const own = inBundle(bundle, node.callFrame.url) ? node.callFrame : owner
    if (node.selfSize > 0) {
      total += node.selfSize
      const module = own ? locate(own.url, own.lineNumber) : '(outside the bundle)'
      const site = own ? `${own.functionName || '(anonymous)'} (${module}:${own.lineNumber + 1})` : `${node.callFrame.functionName || '(anonymous)'} (${node.callFrame.url || 'native'})`
      sites.set(site, (sites.get(site) ?? 0) + node.selfSize)
      const pkg = own ? packageOf(module) : '(outside the bundle)'
      packages.set(pkg, (packages.get(pkg) ?? 0) + node.selfSize)
    }
    for (const child of node.children) walk(child, own)
  }
  walk(profile.head, null)
  const mb = (bytes: number) => round(bytes / 2 ** 20, 1)
  const rows = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, bytes]) => `${name.replaceAll('|', '\\|')} | ${mb(bytes)} | ${round((bytes / total) * 100, 1)} %`)
      .join('\n')
  return (
    `live (sampled): ${mb(total)} MB\n\nallocated in (innermost harness frame) | MB | share\n--- | ---: | ---:\n${rows(sites, top)}\n\n` +
    `package | MB | share\n--- | ---: | ---:\n${rows(packages, 15)}\n`
  )
}
