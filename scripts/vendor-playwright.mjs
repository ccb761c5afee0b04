// The action runs from its committed dist/ with no node_modules of its own. playwright-core cannot
// be bundled (it reads its own package.json and files beside it at run time), so the bundles leave
// it external (`ncc -e playwright-core`) and this copies the files it loads into
// dist/node_modules/playwright-core, where Node's resolution from dist/index.js and
// dist/cli/index.js finds it. Only what driving an installed Chromium needs is copied: no CLI, no
// types, no trace viewer (lib/vite).
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const from = dirname(require.resolve('playwright-core/package.json'))
const to = join(dirname(new URL(import.meta.url).pathname), '..', 'dist', 'node_modules', 'playwright-core')
const KEEP = ['LICENSE', 'NOTICE', 'ThirdPartyNotices.txt', 'browsers.json', 'index.js', 'index.mjs', 'package.json', 'lib']
const DROP_IN_LIB = new Set(['vite', 'tools', 'xdg-open'])

rmSync(to, { recursive: true, force: true })
mkdirSync(to, { recursive: true })
for (const name of KEEP) {
  if (name !== 'lib') {
    cpSync(join(from, name), join(to, name))
    continue
  }
  for (const entry of readdirSync(join(from, 'lib'))) {
    if (!DROP_IN_LIB.has(entry)) cpSync(join(from, 'lib', entry), join(to, 'lib', entry), { recursive: true })
  }
}
console.log(`playwright-core copied into ${to}`)
