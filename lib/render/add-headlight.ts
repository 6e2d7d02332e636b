import { DirectionalLight, type Camera, type Scene } from 'three'

export const HEADLIGHT_INTENSITY = 1.6

/**
 * The light that moves with the camera: a child of the camera, shining from slightly above
 * and right of the eye towards what it looks at. `scale` is the image endpoint's `s`.
 */
export function addHeadlight(scene: Scene, camera: Camera, scale = 1): DirectionalLight {
  const light = new DirectionalLight(0xffffff, HEADLIGHT_INTENSITY * scale)
  light.position.set(0.4, 0.6, 0)
  light.target.position.set(0, 0, -1)
  camera.add(light, light.target)
  scene.add(camera)
  return light
}
