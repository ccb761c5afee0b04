import { describe, expect, test } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatBytes, readBoundedFile } from '../src/util/read-file.js'

const dir = mkdtempSync(join(tmpdir(), 'read-file-'))

describe('readBoundedFile reads regular files under a byte limit and refuses the rest', () => {
  test('a regular file is read whole, multi-byte text intact', () => {
    const file = join(dir, 'text.txt')
    writeFileSync(file, `héllo ${'x'.repeat(200_000)}`)
    expect(readBoundedFile(file, 1_000_000)).toBe(`héllo ${'x'.repeat(200_000)}`)
  })

  test('a file over the limit is refused with its size and the limit', () => {
    const file = join(dir, 'big.txt')
    writeFileSync(file, 'x'.repeat(3000))
    expect(() => readBoundedFile(file, 1024)).toThrow(`${file} is 2.9 KiB, over the limit of 1 KiB`)
  })

  test('a device, a symlink to one, a FIFO with no writer and a directory are refused at once', () => {
    const link = join(dir, 'zero')
    symlinkSync('/dev/zero', link)
    const fifo = join(dir, 'fifo')
    execFileSync('mkfifo', [fifo])
    expect(() => readBoundedFile('/dev/zero', 1024)).toThrow('/dev/zero is not a regular file (a character device)')
    expect(() => readBoundedFile(link, 1024)).toThrow(`${link} is not a regular file (a character device)`)
    expect(() => readBoundedFile(fifo, 1024)).toThrow(`${fifo} is not a regular file (a FIFO)`)
    expect(() => readBoundedFile(dir, 1024)).toThrow(`${dir} is not a regular file (a directory)`)
  })

  test('sizes read as people say them', () => {
    expect(formatBytes(12)).toBe('12 bytes')
    expect(formatBytes(16 * 1024 * 1024)).toBe('16 MiB')
    expect(formatBytes(1536)).toBe('1.5 KiB')
  })
})
