export {}
const { benchForeground } = await import('./foreground')
await benchForeground()
process.exit(0)
