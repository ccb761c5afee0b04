import { describe, expect, test } from '@jest/globals'
import { findBrowser, NO_BROWSER_REASON } from '../src/apps/browser-path.js'

/** Where the browser is found, on a fake file system. */

const fs = (paths: string[]) => (path: string) => paths.includes(path)

describe('finding the browser', () => {
  test('the chrome_path input first, then CHROME_PATH, then PATH, then the usual places', () => {
    const all = fs(['/my/chrome', '/env/chrome', '/bin/chromium', '/usr/bin/chromium'])
    expect(findBrowser({ chromePath: '/my/chrome', env: { CHROME_PATH: '/env/chrome', PATH: '/bin' }, platform: 'linux', isExecutable: all })).toEqual({ choice: { path: '/my/chrome', source: 'input' } })
    expect(findBrowser({ chromePath: '', env: { CHROME_PATH: '/env/chrome', PATH: '/bin' }, platform: 'linux', isExecutable: all })).toEqual({ choice: { path: '/env/chrome', source: 'env' } })
    expect(findBrowser({ chromePath: ' ', env: { PATH: '/nope:/bin' }, platform: 'linux', isExecutable: all })).toEqual({ choice: { path: '/bin/chromium', source: 'search' } })
    expect(findBrowser({ chromePath: '', env: {}, platform: 'linux', isExecutable: all })).toEqual({ choice: { path: '/usr/bin/chromium', source: 'search' } })
  })

  test('Google Chrome comes before Chromium on PATH', () => {
    const found = findBrowser({ chromePath: '', env: { PATH: '/a:/b' }, platform: 'linux', isExecutable: fs(['/a/chromium', '/b/google-chrome']) })
    expect(found).toEqual({ choice: { path: '/b/google-chrome', source: 'search' } })
  })

  test('macOS: the app bundle', () => {
    const mac = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'
    expect(findBrowser({ chromePath: '', env: { PATH: '/usr/bin' }, platform: 'darwin', isExecutable: fs([mac]) })).toEqual({ choice: { path: mac, source: 'search' } })
  })

  test('a given path that does not exist is an error naming its input, never a fall back to the search', () => {
    const present = fs(['/usr/bin/chromium'])
    const input = findBrowser({ chromePath: '/no/such/chrome', env: {}, platform: 'linux', isExecutable: present })
    expect(input).toEqual({ choice: null, reason: 'chrome_path / --chrome-path "/no/such/chrome" is not an executable file; the app layer was skipped' })
    const env = findBrowser({ chromePath: '', env: { CHROME_PATH: '/no/such/chrome' }, platform: 'linux', isExecutable: present })
    expect(env).toEqual({ choice: null, reason: 'CHROME_PATH "/no/such/chrome" is not an executable file; the app layer was skipped' })
  })

  test('none found: the reason says how to get one', () => {
    expect(findBrowser({ chromePath: '', env: { PATH: '/bin' }, platform: 'linux', isExecutable: fs([]) })).toEqual({ choice: null, reason: NO_BROWSER_REASON })
    expect(NO_BROWSER_REASON).toContain('apt-get install -y chromium')
    expect(NO_BROWSER_REASON).toContain('chrome_path / --chrome-path / CHROME_PATH')
  })

  test('the real file system: a directory or a missing file is not a browser', () => {
    expect(findBrowser({ chromePath: '/tmp', env: {} }).choice).toBeNull()
    expect(findBrowser({ chromePath: process.execPath, env: {} })).toEqual({ choice: { path: process.execPath, source: 'input' } })
  })
})
