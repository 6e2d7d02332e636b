/** Text files the studio can show: model sources, shaders, scene.json and the like. */
export function isTextFile(contentType: string): boolean {
  return contentType.startsWith('text/') || /^application\/([\w.-]+\+)?json$/.test(contentType)
}
