// A small leveled logger writing to a stream the edge hands in.
export interface Logger {
  info(msg: string): void
  warn(msg: string): void
  error(msg: string, err?: unknown): void
}

export function streamLogger(write: (line: string) => void, quiet = false): Logger {
  return {
    info: (msg) => { if (!quiet) write(msg) },
    warn: (msg) => write(`warning: ${msg}`),
    error: (msg, err) => write(`error: ${msg}${err instanceof Error ? `\n${err.stack}` : err ? ` ${String(err)}` : ''}`),
  }
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} }
