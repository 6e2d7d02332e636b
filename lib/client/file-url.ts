/** The API path of a configurator file; `path` is `configurator/...` or `renderer/...`, each segment escaped. */
export function configuratorFilePath(configuratorId: string, path: string): string {
  return `/configurators/${configuratorId}/files/${path.split('/').map(encodeURIComponent).join('/')}`
}

/** Text files the studio can show: model sources, shaders, scene.json and the like. */
export function isTextFile(contentType: string): boolean {
  return contentType.startsWith('text/') || /^application\/([\w.-]+\+)?json$/.test(contentType)
}
