import path from 'node:path'
import S3rver from 's3rver'

export const S3RVER_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' }

export interface StartedS3rver {
  endpoint: string
  port: number
  close(): Promise<void>
}

/** A real S3-compatible server on loopback, keeping its objects under `dir`; `port` 0 picks one. */
export async function startS3rver(dir: string, bucket: string, port = 0): Promise<StartedS3rver> {
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory: path.join(dir, 's3rver'),
    configureBuckets: [{ name: bucket, configs: [] }],
  })
  const address = await server.run()
  return { endpoint: `http://127.0.0.1:${address.port}`, port: address.port, close: () => server.close() }
}
