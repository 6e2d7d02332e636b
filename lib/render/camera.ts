import { MathUtils, PerspectiveCamera, Vector3, type Sphere } from 'three'

export type Vec3 = readonly [number, number, number]

/**
 * The image endpoint's camera (px..pz, vx..vz, tx..tz, rx..rz, a) in model coordinates:
 * millimetres, Z up. Every vector is optional; what is missing is derived.
 */
export interface CameraParameters {
  position?: Vec3
  view?: Vec3
  top?: Vec3
  right?: Vec3
  /** Vertical field of view in degrees. */
  angle?: number
}

export const DEFAULT_FIELD_OF_VIEW = 40
/** From the model's centre towards the camera: front (-Y), right and above, a 3/4 view. */
const DEFAULT_DIRECTION = new Vector3(1, -1.4, 0.9).normalize()
const Z_UP = new Vector3(0, 0, 1)
const FIT_MARGIN = 1.08

/**
 * A camera in the model's own Z-up world (the model is never rotated; `camera.up` carries Z).
 * Without a position the camera stands back along the view direction until the model's
 * bounding sphere fits the narrower of the two fields of view; without a view direction it
 * looks at the model's centre, from the default 3/4 direction when it has no position either.
 */
export function createCamera(parameters: CameraParameters, bounds: Sphere, aspect: number): PerspectiveCamera {
  const fov = parameters.angle ?? DEFAULT_FIELD_OF_VIEW
  const center = bounds.isEmpty() ? new Vector3() : bounds.center.clone()
  const radius = bounds.isEmpty() ? 1 : Math.max(bounds.radius, 1e-3)

  const position = parameters.position && new Vector3(...parameters.position)
  const view = parameters.view
    ? new Vector3(...parameters.view).normalize()
    : position && position.distanceTo(center) > radius * 1e-6
      ? center.clone().sub(position).normalize()
      : DEFAULT_DIRECTION.clone().negate()
  const eye = position ?? center.clone().addScaledVector(view, -fitDistance(radius, fov, aspect))

  const camera = new PerspectiveCamera(fov, aspect)
  camera.up.copy(upVector(view, parameters))
  camera.position.copy(eye)
  camera.lookAt(eye.clone().add(view))
  // Clip planes hug the bounding sphere so depth precision stays good for any model size.
  const distance = eye.distanceTo(center)
  camera.near = Math.max(distance - radius * 1.5, radius * 1e-3)
  camera.far = distance + radius * 2
  camera.updateProjectionMatrix()
  return camera
}

function fitDistance(radius: number, fov: number, aspect: number): number {
  const vertical = MathUtils.degToRad(fov)
  const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * aspect)
  return (radius * FIT_MARGIN) / Math.sin(Math.min(vertical, horizontal) / 2)
}

/** top, made perpendicular to view; else from right (up = right × view); else Z, or Y when looking along Z. */
function upVector(view: Vector3, { top, right }: CameraParameters): Vector3 {
  const candidates = [
    top && new Vector3(...top),
    right && new Vector3(...right).cross(view),
    Z_UP.clone(),
    new Vector3(0, 1, 0),
  ]
  for (const candidate of candidates) {
    if (!candidate) continue
    const length = candidate.length()
    const up = candidate.addScaledVector(view, -candidate.dot(view))
    if (up.length() > length * 1e-6) return up.normalize()
  }
  return new Vector3(0, 1, 0)
}
