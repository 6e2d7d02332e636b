import { TextureLoader, type Texture } from 'three'
import { parseApiError } from '@/lib/client/api-client'
import type { SceneLoaders } from '@/lib/render/create-shader-material'
import type { SamplerValue } from '@/lib/render/create-shader-material'

/** Where a renderer's files are served: a file's URL is prefix + its path (each segment encoded) + query (the renderingKey). */
export interface RendererFiles {
  prefix: string
  query: string
}

/** Scene loaders for a browser page (viewer or headless renderer) that reaches the renderer files endpoint. */
export function createSceneLoaders(files: RendererFiles, signal?: AbortSignal): SceneLoaders {
  const fileUrl = (path: string) => {
    const segments = path.split('/')
    // The URL resolver would apply `..`, leading the key to another endpoint of the session.
    if (segments.some((segment) => segment === '' || segment === '.' || segment === '..'))
      throw new Error(`bad renderer file path ${path}`)
    return files.prefix + segments.map(encodeURIComponent).join('/') + files.query
  }
  return {
    loadText: async (path) => {
      const file = await fetch(fileUrl(path), { signal })
      if (!file.ok) throw new Error(`renderer file ${path}: ${await errorMessage(file)}`)
      return file.text()
    },
    loadTexture: (sampler) => loadTexture(sampler, fileUrl),
  }
}

async function loadTexture(sampler: SamplerValue, fileUrl: (path: string) => string): Promise<Texture> {
  // In the headless page external URLs lead to the server's route (image-renderer.ts), which
  // fetches public addresses only; in the viewer they load directly in the customer's browser.
  if (sampler.external && !/^https?:\/\//i.test(sampler.url))
    throw new Error('an external texture needs an http(s) URL')
  // ImageLoader rejects with a bare Event; the server's route or the files endpoint knows why.
  return new TextureLoader().loadAsync(sampler.external ? sampler.url : fileUrl(sampler.url)).catch(() => {
    throw new Error('the image did not load')
  })
}

/** The API's `{error: {message}}` of a failed response, or its status. */
export async function errorMessage(response: Response): Promise<string> {
  return parseApiError(response.status, response.statusText, await response.text().catch(() => '')).message
}
