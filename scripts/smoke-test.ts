// CI's smoke test on the oldest Node that engines allow (.ci/run): `npm start` on a fresh embedded
// database, sign in as its admin, open a session of a demo configurator and fetch its model.
// It runs on the Node first on PATH, and wants the production build `npm test` made (npm start
// reuses it while the sources are unchanged).
import assert from 'node:assert/strict'
import { ADMIN, callServer, freePort, signIn, startNpm, tempDir } from '../test/support/start-server'

const port = await freePort()
const url = `http://127.0.0.1:${port}`
const server = await startNpm(
  ['start'],
  { DATA_DIR: tempDir(), PORT: String(port), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
  'listening on',
)
try {
  const token = await signIn(url)
  const demos = (await (await callServer(url, token, 'GET', '/configurators')).json()) as {
    UUID: string
    name: string
  }[]
  const box = demos.find((demo) => demo.name === 'Box with lid')
  assert.ok(box, `no demo "Box with lid" among ${JSON.stringify(demos.map((demo) => demo.name))}`)
  const created = await callServer(url, token, 'POST', '/configSessions', { configuratorUUID: box.UUID })
  assert.equal(created.status, 200, await created.clone().text())
  const session = (await created.json()) as { id: string }

  const model = await callServer(url, token, 'GET', `/configSessions/${session.id}/model`)
  const stl = new Uint8Array(await model.arrayBuffer())
  assert.equal(model.status, 200, new TextDecoder().decode(stl))
  assert.equal(model.headers.get('content-type'), 'model/stl')
  // Binary STL: an 80-byte header, the triangle count, 50 bytes a triangle.
  const triangles = new DataView(stl.buffer).getUint32(80, true)
  assert.ok(
    triangles > 0 && stl.byteLength === 84 + 50 * triangles,
    `not a binary STL of triangles: ${stl.byteLength} bytes`,
  )
  console.log(
    `smoke test on Node ${process.versions.node}: npm start, signed in, a session of "${box.name}" built a model of ${triangles} triangles`,
  )
} catch (error) {
  console.error(`${server.output()}\nsmoke test failed`)
  throw error
} finally {
  server.child.kill('SIGTERM')
}
assert.equal(await server.exited, 0, `npm start ended with ${server.child.exitCode} on SIGTERM`)
