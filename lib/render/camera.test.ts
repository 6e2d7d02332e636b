import { Frustum, Matrix4, Sphere, Vector3 } from 'three'
import { describe, expect, it } from 'vitest'
import { createCamera } from '@/lib/render/camera'

const bounds = new Sphere(new Vector3(10, 20, 5), 15)

function direction(camera: ReturnType<typeof createCamera>): number[] {
  return camera
    .getWorldDirection(new Vector3())
    .toArray()
    .map((value) => Math.round(value * 1000) / 1000 + 0)
}

function isFramed(camera: ReturnType<typeof createCamera>, sphere: Sphere): boolean {
  camera.updateMatrixWorld()
  const frustum = new Frustum().setFromProjectionMatrix(
    new Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse),
  )
  // Every point of the sphere inside: its centre at least a radius inside each plane.
  return frustum.planes.every((plane) => plane.distanceToPoint(sphere.center) >= sphere.radius - 1e-6)
}

describe('createCamera', () => {
  it.each([[4 / 3], [16 / 9], [1], [0.5]])(
    'frames the whole model from a 3/4 view above front right, Z up (aspect %d)',
    (aspect) => {
      const camera = createCamera({}, bounds, aspect)
      expect(isFramed(camera, bounds)).toBe(true)
      expect(isFramed(camera, new Sphere(bounds.center, bounds.radius * 1.2))).toBe(false) // snug, not far away
      const toCamera = camera.position.clone().sub(bounds.center)
      expect(toCamera.x).toBeGreaterThan(0)
      expect(toCamera.y).toBeLessThan(0)
      expect(toCamera.z).toBeGreaterThan(0)
      expect(new Vector3(0, 1, 0).applyQuaternion(camera.quaternion).z).toBeGreaterThan(0.5) // screen up is mostly +Z
      expect(camera.near).toBeGreaterThan(0)
      expect(camera.far).toBeGreaterThan(camera.position.distanceTo(bounds.center) + bounds.radius)
    },
  )

  it('takes position, view direction, top vector and angle as given', () => {
    const camera = createCamera({ position: [100, 20, 5], view: [-2, 0, 0], top: [0, 0, 3], angle: 30 }, bounds, 1)
    expect(camera.position.toArray()).toEqual([100, 20, 5])
    expect(direction(camera)).toEqual([-1, 0, 0])
    expect(camera.fov).toBe(30)
    // Looking along -X with Z up, screen right is +Y.
    expect(
      new Vector3(1, 0, 0)
        .applyQuaternion(camera.quaternion)
        .toArray()
        .map((value) => Math.round(value) + 0),
    ).toEqual([0, 1, 0])
  })

  it('derives the top vector from the right vector, and makes a tilted top perpendicular', () => {
    const fromRight = createCamera({ position: [100, 20, 5], view: [-1, 0, 0], right: [0, -1, 0] }, bounds, 1)
    expect(
      new Vector3(0, 1, 0)
        .applyQuaternion(fromRight.quaternion)
        .toArray()
        .map((value) => Math.round(value) + 0),
    ).toEqual([0, 0, -1])
    const tilted = createCamera({ position: [100, 20, 5], view: [-1, 0, 0], top: [1, 0, 1] }, bounds, 1)
    expect(
      new Vector3(0, 1, 0)
        .applyQuaternion(tilted.quaternion)
        .toArray()
        .map((value) => Math.round(value) + 0),
    ).toEqual([0, 0, 1])
  })

  it('looks at the model from a given position, and stands back along a given view direction', () => {
    expect(direction(createCamera({ position: [10, 20, 100] }, bounds, 1))).toEqual([0, 0, -1])
    const camera = createCamera({ view: [0, 1, 0] }, bounds, 1)
    expect(camera.position.x).toBeCloseTo(10)
    expect(camera.position.y).toBeLessThan(20 - bounds.radius)
    expect(isFramed(camera, bounds)).toBe(true)
  })

  it('uses +Y as top when looking straight down Z', () => {
    const camera = createCamera({ view: [0, 0, -1] }, bounds, 1)
    expect(
      new Vector3(0, 1, 0)
        .applyQuaternion(camera.quaternion)
        .toArray()
        .map((value) => Math.round(value) + 0),
    ).toEqual([0, 1, 0])
  })

  it('frames an empty model around the origin', () => {
    const camera = createCamera({}, new Sphere(), 1)
    expect(Number.isFinite(camera.position.length())).toBe(true)
    expect(camera.near).toBeGreaterThan(0)
  })
})
