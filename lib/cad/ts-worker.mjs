// Worker threads start from plain JavaScript: register tsx, then load the TypeScript worker.
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
await import(workerData.script)
