// What an OpenSCAD run printed, sorted into the log's `message` and `error` as it arrives and
// bounded there: a model that echoes a million lines must not fill the worker's memory, the
// build cache or every `log` and `save` answer. Imported by the worker thread: relative imports only.
import type { EngineLog } from '../engine'

/** Most bytes (UTF-8, with newlines) of `message` and of `error`, the line saying what was cut included. */
export const LOG_CAP_BYTES = 1024 * 1024
/** Part of the cap kept for errors printed after the cap was reached, so why a build failed is never cut. */
const LATE_ERROR_BYTES = 64 * 1024
/** Room for the line saying what was cut and one error line of the server's own (withError). */
const RESERVED_BYTES = 1024

const NOISE =
  /^(Could not initialize localization|Geometries in cache|Geometry cache size|CGAL Polyhedrons in cache|CGAL cache size)/
const PROBLEM =
  /^(ERROR|WARNING|TRACE|DEPRECATED|FONT-WARNING|UI-WARNING|EXPORT-WARNING|EXPORT-ERROR|PARSER-ERROR)\b|^Current top level object is empty/i
const ERROR = /^([A-Z]+-)?ERROR\b/i

class BoundedText {
  private lines: string[] = []
  private bytes = 0
  private cutBytes = 0
  private cutLines = 0

  add(line: string): void {
    const size = Buffer.byteLength(line) + 1
    const isHead = this.cutLines === 0 && this.bytes + size <= LOG_CAP_BYTES - LATE_ERROR_BYTES
    const isLateError = ERROR.test(line) && this.bytes + size <= LOG_CAP_BYTES - RESERVED_BYTES
    if (isHead || isLateError) {
      this.lines.push(line)
      this.bytes += size
    } else {
      this.cutBytes += size
      this.cutLines += 1
    }
  }

  text(): string {
    if (this.cutLines === 0) return this.lines.join('\n')
    const size =
      this.cutBytes >= 1024 * 1024
        ? `${(this.cutBytes / (1024 * 1024)).toFixed(1)} MB`
        : `${Math.ceil(this.cutBytes / 1024)} KB`
    return [...this.lines, `... ${size} (${this.cutLines} lines) cut`].join('\n')
  }
}

export class OpenscadLog {
  private message = new BoundedText()
  private error = new BoundedText()

  add(printed: string): void {
    const line = printed.trim()
    if (line === '' || NOISE.test(line)) return
    const shown = printed.replaceAll('/model/', '')
    if (PROBLEM.test(line)) this.error.add(shown)
    else this.message.add(shown)
  }

  toLog(): EngineLog {
    return { message: this.message.text(), error: this.error.text() }
  }
}

/**
 * Whether the run failed, whatever OpenSCAD's exit code: a failed `assert()` (the designer's way
 * to refuse values) prints `ERROR: Assertion ... failed` and OpenSCAD still writes the geometry
 * made before it. `WARNING:` lines, even those quoting an internal error (Manifold falling back to
 * CGAL), are no failure.
 */
export function hasError(log: EngineLog): boolean {
  return /^ERROR:/m.test(log.error)
}
