import { Material, Mesh, ShaderMaterial, type Camera, type Scene, type WebGLRenderer } from 'three'
import { createDefaultMaterial } from '@/lib/render/create-default-material'

const MARKER = /\/\/ paraform material ("(?:[^"\\]|\\.)*")/

/**
 * Compiles the scene's programs now and puts the part's own colour on every part whose scene
 * material does not compile or link, so a designer's shader error shows as a warning naming
 * the material and the driver's message instead of an invisible part.
 */
export function checkShaders(renderer: WebGLRenderer, scene: Scene, camera: Camera): string[] {
  const failed = new Map<string, string>()
  const previous = renderer.debug.onShaderError
  renderer.debug.onShaderError = (gl, _program, vertexShader, fragmentShader) => {
    const match = MARKER.exec(gl.getShaderSource(fragmentShader) ?? '')
    if (!match?.[1]) return
    const log = [gl.getShaderInfoLog(vertexShader), gl.getShaderInfoLog(fragmentShader), gl.getProgramInfoLog(_program)]
      .map((text) => text?.replace(/\0/g, '').trim())
      .filter(Boolean)
      .join(' ')
    failed.set(JSON.parse(match[1]) as string, log || 'does not link')
  }
  try {
    renderer.compile(scene, camera)
    // three checks a program on its first use; use them all now.
    for (const program of renderer.info.programs ?? []) program.getUniforms()
  } finally {
    renderer.debug.onShaderError = previous
  }
  if (failed.size === 0) return []
  scene.traverse((object) => {
    if (!(object instanceof Mesh) || !(object.material instanceof ShaderMaterial)) return
    const key = object.material.name.replace(/^material /, '')
    if (!failed.has(key)) return
    object.material.dispose()
    const fallback: unknown = object.userData.defaultMaterial
    object.material = fallback instanceof Material ? fallback : createDefaultMaterial([])
  })
  return [...failed].map(([key, log]) => `material ${key}: shader error: ${log}; part shown in its own colour`)
}
