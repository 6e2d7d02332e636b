/**
 * Whether WebGL runs on the CPU here (SwiftShader, llvmpipe, Microsoft's Basic Render Driver).
 * Asked once with a throwaway context, before the viewer's own context is made: multisampling
 * can only be chosen at creation, and on the CPU it costs more than a big model can afford.
 */
export function isSoftwareRenderer(): boolean {
  const canvas = document.createElement('canvas')
  const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl')
  if (!gl) return false
  const info = gl.getExtension('WEBGL_debug_renderer_info')
  const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER))
  gl.getExtension('WEBGL_lose_context')?.loseContext()
  return /swiftshader|llvmpipe|softpipe|basic render|software/i.test(renderer)
}
