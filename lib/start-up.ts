/** Ends start-up with one line saying what is wrong. */
export function failStartUp(message: string): never {
  console.error(`paraform: ${message.replace(/\s+/g, ' ').trim()}`)
  process.exit(1)
}
