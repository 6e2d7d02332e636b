import { ApiError, parseApiError } from '@/lib/client/api-client'

/**
 * PUT a file as the raw body to `/api{path}`, reporting upload progress as a fraction 0..1.
 * XMLHttpRequest because fetch cannot report upload progress.
 */
export function uploadFile(path: string, file: Blob, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open('PUT', `/api${path}`)
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total)
    })
    request.addEventListener('load', () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(1)
        resolve()
      } else {
        reject(parseApiError(request.status, request.statusText, request.responseText))
      }
    })
    request.addEventListener('error', () => reject(new ApiError(0, 'network_error', 'The upload was interrupted')))
    request.send(file)
  })
}
