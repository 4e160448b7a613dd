// The few tar headers a backup writes (POSIX ustar, with a pax record for a name past 100 bytes): written here so file
// bodies go from disk to the response without a tar library's stream in between, which cost more than the hashing.
const BLOCK = 512

/** `value` in octal, zero-padded to `width - 1` digits and a NUL, as ustar's number fields. */
const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, '0')}\0`

/** A size past ustar's 11 octal digits (8 GiB) in GNU's base-256 form, which tar and tar-stream both read. */
function writeSize(block: Buffer, size: number) {
  if (size < 0o77777777777) {
    block.write(octal(size, 12), 124, 'ascii')
    return
  }
  let n = size
  for (let i = 135; i > 124; i--) {
    block[i] = n % 256
    n = Math.floor(n / 256)
  }
  block[124] = 0x80
}

function ustar(name: string, type: '0' | '5' | 'x', size: number, mode: number, mtime: Date): Buffer {
  const block = Buffer.alloc(BLOCK)
  block.write(name, 0, 100, 'utf8')
  block.write(octal(mode & 0o7777, 8), 100, 'ascii')
  block.write(octal(0, 8), 108, 'ascii')
  block.write(octal(0, 8), 116, 'ascii')
  writeSize(block, size)
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii')
  block.write(type, 156, 'ascii')
  block.write('ustar\0' + '00', 257, 'ascii')
  // The checksum is summed with its own field read as eight spaces.
  block.fill(0x20, 148, 156)
  let sum = 0
  for (const byte of block) sum += byte
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii')
  return block
}

/** `LEN path=VALUE\n`, where LEN counts the whole record, itself included. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`
  const n = Buffer.byteLength(body)
  let length = n + String(n).length
  if (String(length).length !== String(n).length) length = n + String(length).length
  return Buffer.from(`${length}${body}`)
}

/** Zero bytes that fill an entry of `size` bytes up to its last block. */
export const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK)

/** The end of an archive: two empty blocks. */
export const trailer = () => Buffer.alloc(2 * BLOCK)

/** The header block(s) of a file or directory entry (a pax record first when the name is longer than ustar's 100 bytes). */
export function entryHeader(name: string, type: 'file' | 'directory', size: number, mode: number, mtime: Date): Buffer {
  const full = type === 'directory' && !name.endsWith('/') ? `${name}/` : name
  const header = ustar(full, type === 'file' ? '0' : '5', type === 'file' ? size : 0, mode, mtime)
  if (Buffer.byteLength(full) <= 100) return header
  const pax = paxRecord('path', full)
  return Buffer.concat([ustar(`PaxHeader/${full.slice(-80)}`, 'x', pax.length, 0o644, mtime), pax, padding(pax.length), header])
}
